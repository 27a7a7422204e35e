namespace Berth.Benchmarks.Articles.TcpFramework;

/// <summary>
/// A counter guarded by every lock kind the lock benchmarks compare. The read-lock variant only
/// reads the counter, as a reader would; the others increment it.
/// </summary>
internal sealed class LockedCounter
{
    private readonly object _monitor = new();
    private readonly Lock _lock = new();
    private readonly ReaderWriterLockSlim _readerWriter = new();
    private long _value;

    public long Run(LockKind kind, int count) => kind switch
    {
        LockKind.Monitor => WithMonitor(count),
        LockKind.Lock => WithLock(count),
        LockKind.LockEnterScope => WithLockScope(count),
        LockKind.ReaderWriterWrite => WithWriteLock(count),
        LockKind.ReaderWriterRead => WithReadLock(count),
        LockKind.Interlocked => WithInterlocked(count),
        _ => throw new ArgumentOutOfRangeException(nameof(kind)),
    };

    private long WithMonitor(int count)
    {
        for (var i = 0; i < count; i++)
        {
            lock (_monitor)
            {
                _value++;
            }
        }

        return _value;
    }

    private long WithLock(int count)
    {
        for (var i = 0; i < count; i++)
        {
            _lock.Enter();
            try
            {
                _value++;
            }
            finally
            {
                _lock.Exit();
            }
        }

        return _value;
    }

    private long WithLockScope(int count)
    {
        for (var i = 0; i < count; i++)
        {
            using (_lock.EnterScope())
            {
                _value++;
            }
        }

        return _value;
    }

    private long WithWriteLock(int count)
    {
        for (var i = 0; i < count; i++)
        {
            _readerWriter.EnterWriteLock();
            try
            {
                _value++;
            }
            finally
            {
                _readerWriter.ExitWriteLock();
            }
        }

        return _value;
    }

    private long WithReadLock(int count)
    {
        long sum = 0;
        for (var i = 0; i < count; i++)
        {
            _readerWriter.EnterReadLock();
            try
            {
                sum += _value;
            }
            finally
            {
                _readerWriter.ExitReadLock();
            }
        }

        return sum;
    }

    private long WithInterlocked(int count)
    {
        long last = 0;
        for (var i = 0; i < count; i++)
        {
            last = Interlocked.Increment(ref _value);
        }

        return last;
    }
}
