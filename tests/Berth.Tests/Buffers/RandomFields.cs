using Berth.Buffers;

namespace Berth.Tests.Buffers;

/// <summary>Random packet fields with their expected values, for round-trip tests with fixed seeds.</summary>
internal abstract record RandomFields
{
    private const string Alphabet = "abcXYZ019 _-héü✓";

    public abstract void Write(ref PacketWriter writer);

    public abstract void AssertRead(ref PacketReader reader);

    public static List<RandomFields> Generate(Random random, int count)
    {
        var fields = new List<RandomFields>(count);
        for (var i = 0; i < count; i++)
        {
            fields.Add(random.Next(14) switch
            {
                0 => new U8((byte)random.Next(256)),
                1 => new I8((sbyte)random.Next(-128, 128)),
                2 => new U16((ushort)random.Next(65536)),
                3 => new I16((short)random.Next(-32768, 32768)),
                4 => new U32((uint)random.NextInt64(uint.MaxValue + 1L)),
                5 => new I32(random.Next(int.MinValue, int.MaxValue)),
                6 => new U64((ulong)random.NextInt64() * 2 + (ulong)random.Next(2)),
                7 => new I64(random.NextInt64(long.MinValue, long.MaxValue)),
                8 => new F32((float)random.NextDouble() * 1e6f),
                9 => new F64(random.NextDouble() * 1e300),
                10 => new Flag(random.Next(2) == 1),
                11 => new VarInt((uint)random.NextInt64(uint.MaxValue + 1L) >> random.Next(32)),
                12 => new Text(RandomText(random), random.Next(2) == 0 ? StringLengthPrefix.UInt16 : StringLengthPrefix.VarInt),
                _ => new Raw(RandomBytes(random)),
            });
        }

        return fields;
    }

    public static void AssertReadsBack(List<RandomFields> fields, ref PacketReader reader)
    {
        foreach (var field in fields)
        {
            field.AssertRead(ref reader);
        }

        Assert.Equal(0, reader.Remaining);
    }

    private static string RandomText(Random random) =>
        new(Enumerable.Range(0, random.Next(0, 40)).Select(_ => Alphabet[random.Next(Alphabet.Length)]).ToArray());

    private static byte[] RandomBytes(Random random)
    {
        var bytes = new byte[random.Next(0, 64)];
        random.NextBytes(bytes);
        return bytes;
    }

    private sealed record U8(byte Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteByte(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadByte());
    }

    private sealed record I8(sbyte Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteSByte(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadSByte());
    }

    private sealed record U16(ushort Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteUInt16(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadUInt16());
    }

    private sealed record I16(short Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteInt16(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadInt16());
    }

    private sealed record U32(uint Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteUInt32(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadUInt32());
    }

    private sealed record I32(int Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteInt32(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadInt32());
    }

    private sealed record U64(ulong Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteUInt64(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadUInt64());
    }

    private sealed record I64(long Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteInt64(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadInt64());
    }

    private sealed record F32(float Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteSingle(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadSingle());
    }

    private sealed record F64(double Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteDouble(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadDouble());
    }

    private sealed record Flag(bool Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteBoolean(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadBoolean());
    }

    private sealed record VarInt(uint Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteVarUInt32(Value);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadVarUInt32());
    }

    private sealed record Text(string Value, StringLengthPrefix Prefix) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteUtf8(Value, Prefix);

        public override void AssertRead(ref PacketReader reader) => Assert.Equal(Value, reader.ReadUtf8(Prefix));
    }

    private sealed record Raw(byte[] Value) : RandomFields
    {
        public override void Write(ref PacketWriter writer) => writer.WriteBytes(Value);

        public override void AssertRead(ref PacketReader reader)
        {
            var actual = new byte[Value.Length];
            reader.ReadBytes(actual);
            Assert.Equal(Value, actual);
        }
    }
}
