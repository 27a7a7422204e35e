using System.Text;
using Berth.Messages;

namespace Berth.Fuzz.Messages;

/// <summary>Random, valid instances of the fuzzed contracts, drawn from a case's random stream.</summary>
internal static class FuzzMessageMaker
{
    private static readonly Rune[] Alphabet = [new('a'), new('Z'), new(' '), new(0xE9), new(0x20AC), new(0x1F600)];

    public static FuzzMove Move(ref FuzzRandom random) => new()
    {
        Player = (int)random.NextUInt64(),
        X = BitConverter.UInt32BitsToSingle((uint)random.NextUInt64()),
        Heading = (FuzzHeading)(short)random.NextUInt64(),
        Running = random.OneIn(2),
        Tick = (long)random.NextUInt64(),
        Session = random.OneIn(4) ? Guid.Empty : new Guid((int)random.NextUInt64(), (short)random.NextUInt64(), (short)random.NextUInt64(), 1, 2, 3, 4, 5, 6, 7, 8),
        At = new DateTime((long)(random.NextUInt64() % (ulong)DateTime.MaxValue.Ticks), (DateTimeKind)random.Next(3)),
        Elapsed = TimeSpan.FromTicks((long)random.NextUInt64()),
        Price = new decimal((int)random.NextUInt64(), (int)random.NextUInt64(), (int)random.NextUInt64(), random.OneIn(2), (byte)random.Next(29)),
        Key = (char)random.NextUInt64(),
    };

    public static FuzzChat Chat(ref FuzzRandom random)
    {
        var chat = new FuzzChat
        {
            Text = Text(ref random),
            Nick = random.OneIn(2) ? null : Text(ref random),
            Blob = Bytes(ref random),
            Memory = Bytes(ref random),
            Numbers = new int[random.SkewedLength(8)],
            Count = random.OneIn(2) ? null : (int)random.NextUInt64(),
            Last = random.OneIn(2) ? null : Move(ref random),
            Notes = random.OneIn(3) ? null : new string?[random.SkewedLength(4)],
            Tree = random.OneIn(2) ? null : Tree(ref random, 0),
            Score = BitConverter.UInt64BitsToDouble(random.NextUInt64()),
            Quote = new Utf8Field(Encoding.UTF8.GetBytes(Text(ref random))),
        };
        for (var i = 0; i < chat.Numbers.Length; i++)
        {
            chat.Numbers[i] = (int)random.NextUInt64();
        }

        for (var i = random.SkewedLength(5); i > 0; i--)
        {
            chat.Tags.Add(Text(ref random));
        }

        for (var i = random.SkewedLength(3); i > 0; i--)
        {
            chat.Path.Add(Move(ref random));
        }

        chat.Shape = random.OneIn(2) ? null : Shape(ref random);
        for (var i = random.SkewedLength(3); i > 0; i--)
        {
            chat.Shapes.Add(Shape(ref random));
        }

        if (chat.Notes is not null)
        {
            for (var i = 0; i < chat.Notes.Length; i++)
            {
                chat.Notes[i] = random.OneIn(2) ? null : Text(ref random);
            }
        }

        return chat;
    }

    public static FuzzTree Tree(ref FuzzRandom random) => Tree(ref random, 0);

    private static FuzzShape Shape(ref FuzzRandom random) => random.OneIn(2)
        ? new FuzzDot { X = (short)random.NextUInt64() }
        : new FuzzLine { Name = Text(ref random), End = random.OneIn(2) ? null : new FuzzDot { X = (short)random.NextUInt64() } };

    private static FuzzTree Tree(ref FuzzRandom random, int depth)
    {
        var children = new List<FuzzTree>();
        for (var i = depth < 3 ? random.Next(3) : 0; i > 0; i--)
        {
            children.Add(Tree(ref random, depth + 1));
        }

        return new FuzzTree
        {
            Value = (int)random.NextUInt64(),
            Left = depth < 4 && random.OneIn(3) ? Tree(ref random, depth + 1) : null,
            Children = children,
        };
    }

    private static string Text(ref FuzzRandom random)
    {
        var text = new StringBuilder();
        for (var i = random.SkewedLength(12); i > 0; i--)
        {
            text.Append(Alphabet[random.Next(Alphabet.Length)].ToString());
        }

        return text.ToString();
    }

    private static byte[] Bytes(ref FuzzRandom random)
    {
        var bytes = new byte[random.SkewedLength(24)];
        random.Fill(bytes);
        return bytes;
    }
}
