using System.Runtime.InteropServices;

namespace Berth.Unix;

/// <summary>
/// The type bits of a path's mode, from <c>lstat</c>: the runtime tells a file from a directory but not a socket from
/// a regular file or a FIFO, and only a socket may be unlinked to reclaim a listening path.
/// </summary>
internal static partial class FileType
{
    public const int Unknown = -1;
    public const int Socket = 0xC000;

    private const int TypeMask = 0xF000;

    /// <summary>The <c>S_IFMT</c> bits of <paramref name="path"/> (not following a link), or <see cref="Unknown"/>.</summary>
    public static int Of(string path)
    {
        // st_mode's offset in glibc's struct stat: after st_dev, st_ino and st_nlink on x64, after st_dev and st_ino on arm64.
        var modeOffset = RuntimeInformation.ProcessArchitecture switch
        {
            Architecture.X64 => 24,
            Architecture.Arm64 => 16,
            _ => -1,
        };
        if (!OperatingSystem.IsLinux() || modeOffset < 0)
        {
            return Unknown;
        }

        Span<byte> stat = stackalloc byte[256];
        return Lstat(path, ref MemoryMarshal.GetReference(stat)) == 0
            ? BitConverter.ToInt32(stat[modeOffset..]) & TypeMask
            : Unknown;
    }

    [LibraryImport("libc", EntryPoint = "lstat", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int Lstat(string path, ref byte stat);
}
