namespace Berth.Generators.Tests;

/// <summary>Every contract mistake is a compile error with its own id, at the declaration that makes it.</summary>
public class DiagnosticTests
{
    private const string Usings = "using System; using System.Collections.Generic; using Berth.Messages;\n";

    [Fact]
    public Task A_valid_contract_compiles_with_no_diagnostic() => GeneratorTest.Run(Usings + """
        [Message(1)]
        public partial struct Move
        {
            [Field(0)] public int X;
            [Field(1)] public string Name;
            [Field(2)] public List<int>? Steps;
        }
        """);

    [Fact]
    public Task A_utf8_view_field_alone_in_an_array_and_nullable_compiles_with_no_diagnostic() => GeneratorTest.Run(Usings + """
        [Message(1)]
        public partial struct Say
        {
            [Field(0)] public Utf8Field Text;
            [Field(1)] public Utf8Field[] Tags;
            [Field(2)] public Utf8Field? Nick;
        }
        """);

    [Fact]
    public Task BERTH001_two_contracts_with_one_id() => GeneratorTest.Run(
        Usings + """
        [Message(7)] public partial struct First { [Field(0)] public int X; }
        [{|#0:Message(7)|}] public partial struct Second { [Field(0)] public int X; }
        """,
        GeneratorTest.Expect("BERTH001", 0).WithArguments("7", "First", "Second"));

    [Fact]
    public Task BERTH002_a_field_type_a_message_cannot_carry() => GeneratorTest.Run(
        Usings + """
        [Message(1)] public partial struct Bad { [Field(0)] public object {|#0:Anything|}; }
        """,
        GeneratorTest.Expect("BERTH002", 0).WithArguments("Bad", "Anything", "object"));

    [Fact]
    public Task BERTH002_a_collection_of_collections() => GeneratorTest.Run(
        Usings + """
        [Message(1)] public partial struct Bad { [Field(0)] public List<int[]> {|#0:Grid|} = []; public Bad() { } }
        """,
        GeneratorTest.Expect("BERTH002", 0).WithArguments("Bad", "Grid", "System.Collections.Generic.List<int[]>"));

    [Fact]
    public Task BERTH003_a_contract_not_declared_partial() => GeneratorTest.Run(
        Usings + """
        [Message(1)] public struct {|#0:Whole|} { [Field(0)] public int X; }
        """,
        GeneratorTest.Expect("BERTH003", 0).WithArguments("Whole"));

    [Fact]
    public Task BERTH003_a_contract_nested_in_a_type_not_declared_partial() => GeneratorTest.Run(
        Usings + """
        public class Outer { [Message(1)] public partial struct {|#0:Inner|} { [Field(0)] public int X; } }
        """,
        GeneratorTest.Expect("BERTH003", 0).WithArguments("Inner"));

    [Fact]
    public Task BERTH004_a_gap_in_field_order() => GeneratorTest.Run(
        Usings + """
        [Message(1)] public partial struct {|#0:Gappy|} { [Field(0)] public int A; [Field(2)] public int C; }
        """,
        GeneratorTest.Expect("BERTH004", 0).WithArguments("Gappy", "1"));

    [Fact]
    public Task BERTH005_two_fields_with_one_order() => GeneratorTest.Run(
        Usings + """
        [Message(1)] public partial struct Twice { [Field(0)] public int A; [Field(0)] public int {|#0:B|}; }
        """,
        GeneratorTest.Expect("BERTH005", 0).WithArguments("Twice", "A", "B", "0"));

    [Fact]
    public Task BERTH006_a_field_that_can_be_neither_set_nor_constructed() => GeneratorTest.Run(
        Usings + """
        [Message(1)] public partial class Fixed { [Field(0)] public int {|#0:A|} { get; } }
        """,
        GeneratorTest.Expect("BERTH006", 0).WithArguments("Fixed", "A"));

    [Fact]
    public Task BERTH007_a_generic_contract() => GeneratorTest.Run(
        Usings + """
        [Message(1)] public partial struct {|#0:Box|}<T> { [Field(0)] public int A; }
        """,
        GeneratorTest.Expect("BERTH007", 0).WithArguments("Box"));

    [Fact]
    public Task BERTH007_a_contract_nested_in_a_generic_type() => GeneratorTest.Run(
        Usings + """
        public partial class Outer<T> { [Message(1)] public partial struct {|#0:Inner|} { [Field(0)] public int A; } }
        """,
        GeneratorTest.Expect("BERTH007", 0).WithArguments("Inner"));

    [Fact]
    public Task A_contract_nested_privately_compiles_and_stays_out_of_the_catalog() => GeneratorTest.Run(Usings + """
        public partial class Outer { [Message(1)] private partial struct Hidden { [Field(0)] public int A; } }
        [Message(2)] public partial struct Shown { [Field(0)] public int A; }
        """);

    [Fact]
    public Task BERTH008_a_nested_contract_with_another_byte_order() => GeneratorTest.Run(
        Usings + """
        [Message(1, ByteOrder = Berth.Buffers.Endianness.Big)] public partial struct Inner { [Field(0)] public int A; }
        [Message(2)] public partial struct Outer { [Field(0)] public Inner {|#0:Part|}; }
        """,
        GeneratorTest.Expect("BERTH008", 0).WithArguments("Outer", "Part", "Inner", "big", "little"));

    [Fact]
    public Task BERTH009_a_bound_that_is_not_positive() => GeneratorTest.Run(
        Usings + """
        [Message(1, MaxCollectionCount = 0)] public partial struct {|#0:Empty|} { [Field(0)] public int A; }
        """,
        GeneratorTest.Expect("BERTH009", 0).WithArguments("Empty", "MaxCollectionCount", "0"));

    [Fact]
    public Task BERTH010_a_negative_field_order() => GeneratorTest.Run(
        Usings + """
        [Message(1)] public partial struct Negative { [Field(-1)] public int {|#0:A|}; }
        """,
        GeneratorTest.Expect("BERTH010", 0).WithArguments("Negative", "A", "-1"));

    [Fact]
    public Task A_valid_union_compiles_with_no_diagnostic() => GeneratorTest.Run(Usings + """
        [MessageUnion(1, typeof(Circle), typeof(Square))] public abstract partial class Shape;
        [Message(2)] public sealed partial class Circle : Shape { [Field(0)] public float R { get; set; } }
        [Message(3)] public sealed partial class Square : Shape { [Field(0)] public float S { get; set; } }
        [Message(4)] public partial struct Scene { [Field(0)] public Shape? Main; [Field(1)] public List<Shape>? All; }
        """);

    [Fact]
    public Task BERTH011_a_union_member_that_does_not_derive_from_the_union() => GeneratorTest.Run(
        Usings + """
        [{|#0:MessageUnion(1, typeof(Stray))|}] public abstract partial class Shape;
        [Message(2)] public sealed partial class Stray { [Field(0)] public int A { get; set; } }
        """,
        GeneratorTest.Expect("BERTH011", 0).WithArguments("Shape", "Stray"));

    [Fact]
    public Task BERTH012_a_union_that_is_not_an_abstract_class() => GeneratorTest.Run(
        Usings + """
        [MessageUnion(1)] public partial class {|#0:Concrete|};
        """,
        GeneratorTest.Expect("BERTH012", 0).WithArguments("Concrete"));
}
