// Java 17's side of the native-memory comparison: heap -> native copies through ByteBuffer and the
// incubating foreign-memory API (JEP 412), and downcalls into the same C library the C# benchmarks
// call. Every figure is nanoseconds per operation (median of timed batches after warm-up).
//
// Run: java --add-modules jdk.incubator.foreign --enable-native-access=ALL-UNNAMED \
//           NativeMemoryBench.java --lib bench/native/build/libberthinterop.so [--smoke] [--json FILE]

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;
import java.util.function.LongSupplier;
import jdk.incubator.foreign.CLinker;
import jdk.incubator.foreign.FunctionDescriptor;
import jdk.incubator.foreign.MemoryAddress;
import jdk.incubator.foreign.MemorySegment;
import jdk.incubator.foreign.ResourceScope;
import jdk.incubator.foreign.SymbolLookup;

public class NativeMemoryBench {
    static final int[] SIZES = {64, 1024, 65536, 1048576};
    static final String[] SIZE_LABELS = {"64 B", "1 KB", "64 KB", "1 MB"};

    // Results feed this sink so the JIT cannot discard the measured work.
    static long sink;

    record Timing(long warmupNanos, long batchNanos, int batches, long settleMillis) {}

    record Table(String title, String note, Map<String, String[]> rows) {}

    public static void main(String[] args) throws Throwable {
        var options = Options.parse(args);
        var timing = options.smoke
                ? new Timing(5_000_000L, 2_000_000L, 1, 0)
                : new Timing(400_000_000L, 100_000_000L, 7, 50);
        var command = "bash bench/java/run.sh" + (options.smoke ? " --smoke" : "");
        var tables = new ArrayList<Table>();
        tables.add(allocationTable(timing));
        tables.add(copyTable(timing));
        tables.add(nativeCallTable(timing, options.library));

        var machine = machine();
        for (var table : tables) {
            printMarkdown(table, machine, command);
        }
        System.out.println("Not reproducible on Java 17: the Java 22 Arena API (Arena.ofConfined/ofShared/global/ofAuto),"
                + " MemorySegment.copy with ValueLayout, and Linker.Option.critical (Java 22+) have no Java 17 form;"
                + " the ResourceScope rows above are their Java 17 counterparts. Global-scope allocation is not"
                + " measured because it never frees.");
        if (options.json != null) {
            Files.writeString(options.json, toJson(tables, machine, command));
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    static Table allocationTable(Timing timing) {
        var rows = new LinkedHashMap<String, String[]>();
        rows.put("ByteBuffer.allocateDirect (freed by GC)", measureSizes(timing, size -> () -> {
            var buffer = ByteBuffer.allocateDirect(size);
            buffer.put(size - 1, (byte) 1);
            return buffer.get(size - 1);
        }));
        rows.put("Segment, confined scope (alloc + close)", measureSizes(timing, size -> () -> {
            try (var scope = ResourceScope.newConfinedScope()) {
                var segment = MemorySegment.allocateNative(size, scope);
                return touch(segment, size);
            }
        }));
        rows.put("Segment, shared scope (alloc + close)", measureSizes(timing, size -> () -> {
            try (var scope = ResourceScope.newSharedScope()) {
                var segment = MemorySegment.allocateNative(size, scope);
                return touch(segment, size);
            }
        }));
        rows.put("Segment, implicit scope (freed by GC)", measureSizes(timing, size -> () -> {
            var segment = MemorySegment.allocateNative(size, ResourceScope.newImplicitScope());
            return touch(segment, size);
        }));
        return new Table("Java 17: native allocation (ns/op)",
                "One allocation and its release per operation; allocateNative zeroes the memory.", rows);
    }

    static Table copyTable(Timing timing) {
        var rows = new LinkedHashMap<String, String[]>();
        rows.put("Heap -> fresh DirectByteBuffer", measureSizes(timing, size -> {
            var heap = randomBytes(size);
            return () -> {
                var buffer = ByteBuffer.allocateDirect(size);
                buffer.put(heap);
                return buffer.get(size - 1);
            };
        }));
        rows.put("Heap -> reused DirectByteBuffer", measureSizes(timing, size -> {
            var heap = randomBytes(size);
            var buffer = ByteBuffer.allocateDirect(size);
            return () -> {
                buffer.clear();
                buffer.put(heap);
                return buffer.get(size - 1);
            };
        }));
        rows.put("Heap -> fresh segment (confined scope)", measureSizes(timing, size -> {
            var heap = MemorySegment.ofArray(randomBytes(size));
            return () -> {
                try (var scope = ResourceScope.newConfinedScope()) {
                    var segment = MemorySegment.allocateNative(size, scope);
                    segment.copyFrom(heap);
                    return segment.asByteBuffer().get(size - 1);
                }
            };
        }));
        rows.put("Heap -> reused segment", measureSizes(timing, size -> {
            var heap = MemorySegment.ofArray(randomBytes(size));
            var segment = MemorySegment.allocateNative(size, ResourceScope.newConfinedScope());
            var view = segment.asByteBuffer();
            return () -> {
                segment.copyFrom(heap);
                return view.get(size - 1);
            };
        }));
        return new Table("Java 17: heap -> native copies (ns/op)",
                "One copy of a heap byte[] into native memory per operation.", rows);
    }

    static Table nativeCallTable(Timing timing, Path library) {
        var rows = new LinkedHashMap<String, String[]>();
        final MethodHandle send;
        final MethodHandle transform;
        try {
            System.load(library.toAbsolutePath().toString());
            var linker = CLinker.getInstance();
            var lookup = SymbolLookup.loaderLookup();
            send = linker.downcallHandle(lookup.lookup("berth_send").orElseThrow(),
                    MethodType.methodType(int.class, MemoryAddress.class, int.class),
                    FunctionDescriptor.of(CLinker.C_INT, CLinker.C_POINTER, CLinker.C_INT));
            transform = linker.downcallHandle(lookup.lookup("berth_transform").orElseThrow(),
                    MethodType.methodType(void.class, MemoryAddress.class, int.class, byte.class),
                    FunctionDescriptor.ofVoid(CLinker.C_POINTER, CLinker.C_INT, CLinker.C_CHAR));
        } catch (Throwable e) {
            return new Table("Java 17: calls into the C library (ns/op)",
                    "Not measured: the incubator linker failed: " + e, rows);
        }
        rows.put("send: heap -> reused segment + downcall", measureSizes(timing, size -> {
            var heap = MemorySegment.ofArray(randomBytes(size));
            var segment = MemorySegment.allocateNative(size, ResourceScope.newConfinedScope());
            return () -> {
                segment.copyFrom(heap);
                return invoke(send, segment.address(), size);
            };
        }));
        rows.put("send: data already native", measureSizes(timing, size -> {
            var segment = MemorySegment.allocateNative(size, ResourceScope.newConfinedScope());
            segment.copyFrom(MemorySegment.ofArray(randomBytes(size)));
            return () -> invoke(send, segment.address(), size);
        }));
        rows.put("transform: copy in + downcall + copy out", measureSizes(timing, size -> {
            var array = randomBytes(size);
            var heap = MemorySegment.ofArray(array);
            var segment = MemorySegment.allocateNative(size, ResourceScope.newConfinedScope());
            return () -> {
                segment.copyFrom(heap);
                invokeTransform(transform, segment.address(), size);
                heap.copyFrom(segment);
                return array[size - 1];
            };
        }));
        rows.put("transform: data already native", measureSizes(timing, size -> {
            var segment = MemorySegment.allocateNative(size, ResourceScope.newConfinedScope());
            var view = segment.asByteBuffer();
            return () -> {
                invokeTransform(transform, segment.address(), size);
                return view.get(size - 1);
            };
        }));
        return new Table("Java 17: calls into the C library (ns/op)",
                "berth_send (checksum) and berth_transform (XOR in place) from bench/native/interop, one call per operation.",
                rows);
    }

    static long invoke(MethodHandle send, MemoryAddress address, int size) {
        try {
            return (int) send.invokeExact(address, size);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static void invokeTransform(MethodHandle transform, MemoryAddress address, int size) {
        try {
            transform.invokeExact(address, size, (byte) 0x5A);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    static long touch(MemorySegment segment, int size) {
        var view = segment.asByteBuffer();
        view.put(size - 1, (byte) 1);
        return view.get(size - 1);
    }

    static byte[] randomBytes(int size) {
        var bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    static String[] measureSizes(Timing timing, IntFunction<LongSupplier> caseForSize) {
        var cells = new String[SIZES.length];
        for (int i = 0; i < SIZES.length; i++) {
            cells[i] = format(measure(timing, caseForSize.apply(SIZES[i])));
        }
        return cells;
    }

    // Let the garbage from earlier cases (direct buffers and implicit segments are freed by the
    // collector) be cleaned up first, so its reference processing does not land in this case's
    // batches; then warm up for a fixed time, size a batch to the target duration, and report the
    // median of the batches' per-operation times.
    static double measure(Timing timing, LongSupplier operation) {
        System.gc();
        try {
            Thread.sleep(timing.settleMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        long operations = 0;
        long start = System.nanoTime();
        while (System.nanoTime() - start < timing.warmupNanos || operations < 10) {
            sink += operation.getAsLong();
            operations++;
        }
        double perOperation = (double) (System.nanoTime() - start) / operations;
        long batchSize = Math.max(1, (long) (timing.batchNanos / perOperation));
        var samples = new double[timing.batches];
        for (int b = 0; b < timing.batches; b++) {
            long batchStart = System.nanoTime();
            for (long i = 0; i < batchSize; i++) {
                sink += operation.getAsLong();
            }
            samples[b] = (double) (System.nanoTime() - batchStart) / batchSize;
        }
        Arrays.sort(samples);
        return samples[samples.length / 2];
    }

    static String format(double nanoseconds) {
        return nanoseconds >= 100 ? String.format("%,.0f", nanoseconds) : String.format("%.1f", nanoseconds);
    }

    static String machine() {
        return String.format("%s %s, %d logical cores, Java %s (%s)",
                System.getProperty("os.name"), System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.runtime.version"),
                System.getProperty("java.vm.name"));
    }

    static void printMarkdown(Table table, String machine, String command) {
        System.out.println("## " + table.title);
        System.out.println();
        System.out.println(table.note + " Machine: " + machine + ". Command: `" + command + "`.");
        System.out.println();
        System.out.println("| Method | " + String.join(" | ", SIZE_LABELS) + " |");
        System.out.println("|---|" + "---:|".repeat(SIZE_LABELS.length));
        table.rows.forEach((name, cells) -> System.out.println("| " + name + " | " + String.join(" | ", cells) + " |"));
        System.out.println();
    }

    static String toJson(List<Table> tables, String machine, String command) {
        var json = new StringBuilder("[\n");
        for (int t = 0; t < tables.size(); t++) {
            var table = tables.get(t);
            var columns = new ArrayList<String>();
            columns.add("Method");
            for (var label : SIZE_LABELS) {
                columns.add(label + " (ns/op)");
            }
            json.append("  {\"title\": ").append(quote(table.title))
                .append(", \"note\": ").append(quote(table.note))
                .append(", \"command\": ").append(quote(command))
                .append(", \"machine\": ").append(quote(machine))
                .append(", \"columns\": [");
            json.append(String.join(", ", columns.stream().map(NativeMemoryBench::quote).toList())).append("], \"rows\": [");
            var rowTexts = new ArrayList<String>();
            table.rows.forEach((name, cells) -> {
                var values = new ArrayList<String>();
                values.add(quote(name));
                for (var cell : cells) {
                    values.add(quote(cell));
                }
                rowTexts.add("[" + String.join(", ", values) + "]");
            });
            json.append(String.join(", ", rowTexts)).append("]}").append(t < tables.size() - 1 ? ",\n" : "\n");
        }
        return json.append("]\n").toString();
    }

    static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    record Options(Path library, boolean smoke, Path json) {
        static Options parse(String[] args) {
            Path library = null;
            Path json = null;
            boolean smoke = false;
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--lib" -> library = Path.of(args[++i]);
                    case "--json" -> json = Path.of(args[++i]);
                    case "--smoke" -> smoke = true;
                    default -> throw new IllegalArgumentException("unknown option " + args[i]);
                }
            }
            if (library == null) {
                throw new IllegalArgumentException("--lib PATH to libberthinterop.so is required");
            }
            return new Options(library, smoke, json);
        }
    }
}
