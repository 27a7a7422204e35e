namespace Berth.Benchmarks.Articles.TcpFramework;

internal enum LockKind
{
    Monitor,
    Lock,
    LockEnterScope,
    ReaderWriterWrite,
    ReaderWriterRead,
    Interlocked,
}
