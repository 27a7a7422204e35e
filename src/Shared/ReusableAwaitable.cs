using System.Threading.Tasks.Sources;

namespace Berth.Threading;

/// <summary>
/// The one awaitable an object hands out again and again for its operations, one at a time, so awaiting them allocates
/// nothing: a derived type starts an operation with <see cref="Reset"/>, returns <see cref="Pending"/> (or
/// <see cref="PendingWithoutResult"/>) when it cannot finish at once, and later ends it with <see cref="SetResult"/> or
/// <see cref="SetException"/> on whichever thread finished the work. That thread runs the awaiting code inline unless
/// the derived type asks otherwise, which is what lets a receive completed on an event-loop thread run the frame
/// handler there.
/// </summary>
/// <typeparam name="TResult">What an operation completes with.</typeparam>
internal abstract class ReusableAwaitable<TResult> : IValueTaskSource<TResult>, IValueTaskSource
{
    private ManualResetValueTaskSourceCore<TResult> _core;

    /// <summary>True to run the next continuation on the thread pool instead of the completing thread.</summary>
    protected bool RunContinuationsAsynchronously
    {
        get => _core.RunContinuationsAsynchronously;
        set => _core.RunContinuationsAsynchronously = value;
    }

    /// <summary>The token of the operation under way.</summary>
    protected short Version => _core.Version;

    /// <summary>The value task of the operation under way, completed by <see cref="SetResult"/> or <see cref="SetException"/>.</summary>
    protected ValueTask<TResult> Pending => new(this, _core.Version);

    /// <summary>As <see cref="Pending"/>, for operations whose result nobody reads.</summary>
    protected ValueTask PendingWithoutResult => new(this, _core.Version);

    /// <summary>Starts the next operation; the previous one must have been awaited.</summary>
    protected void Reset() => _core.Reset();

    protected void SetResult(TResult result) => _core.SetResult(result);

    protected void SetException(Exception error) => _core.SetException(error);

    TResult IValueTaskSource<TResult>.GetResult(short token) => _core.GetResult(token);

    void IValueTaskSource.GetResult(short token) => _core.GetResult(token);

    ValueTaskSourceStatus IValueTaskSource<TResult>.GetStatus(short token) => _core.GetStatus(token);

    ValueTaskSourceStatus IValueTaskSource.GetStatus(short token) => _core.GetStatus(token);

    void IValueTaskSource<TResult>.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);

    void IValueTaskSource.OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
