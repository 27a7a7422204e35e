namespace Berth.Threading;

/// <summary>
/// Reused instances of one pooled type, shared by every connection or socket, so a round trip allocates nothing once
/// the pool holds as many as are in flight. One source compiled into Berth and Berth.Zmq, like the awaitable. It keeps at most <see cref="Capacity"/>; beyond that, returned ones go to the GC.
/// </summary>
internal sealed class InstancePool<T>(Func<T> create)
    where T : class
{
    /// <summary>Enough for 100 connections with their full default of in-flight handlers and more.</summary>
    public const int Capacity = 16_384;

    private readonly Lock _lock = new();
    private readonly Stack<T> _free = new();

    public T Rent()
    {
        lock (_lock)
        {
            if (_free.TryPop(out var instance))
            {
                return instance;
            }
        }

        return create();
    }

    public void Return(T instance)
    {
        lock (_lock)
        {
            if (_free.Count < Capacity)
            {
                _free.Push(instance);
            }
        }
    }
}
