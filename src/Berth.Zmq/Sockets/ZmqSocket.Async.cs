using System.Runtime.CompilerServices;
using Berth.Zmq.Native;

namespace Berth.Zmq;

public sealed partial class ZmqSocket
{
    private ZmqReadiness? _readiness;

    /// <summary>One non-blocking libzmq call: a result of zero or more, or -1 when the socket is not ready.</summary>
    private interface IAttempt
    {
        /// <summary>The readiness the call waits for.</summary>
        ZmqPollEvents Needs { get; }

        int Try(ZmqSocket socket);
    }

    /// <summary>
    /// Receives one frame into <paramref name="buffer"/>, waiting without a thread while none is available. Completes
    /// synchronously, allocating nothing, when a frame is already queued.
    /// </summary>
    /// <param name="buffer">Where the frame is copied.</param>
    /// <param name="cancellationToken">Cancels the wait; no frame is lost.</param>
    /// <returns>The frame size.</returns>
    public ValueTask<int> ReceiveAsync(Memory<byte> buffer, CancellationToken cancellationToken = default) =>
        RunAsync(new ReceiveSpanAttempt(buffer), cancellationToken);

    /// <summary>Receives one frame into <paramref name="message"/>, waiting without a thread while none is available.</summary>
    /// <param name="message">The frame to fill.</param>
    /// <param name="cancellationToken">Cancels the wait; no frame is lost.</param>
    /// <returns>A task that completes when the frame is received.</returns>
    public ValueTask ReceiveAsync(ZmqMessage message, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(message);
        return WithoutResult(RunAsync(new ReceiveMessageAttempt(message), cancellationToken));
    }

    /// <summary>Sends one frame, waiting without a thread while the high-water mark is reached.</summary>
    /// <param name="data">The frame bytes; must not change until the task completes.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    /// <param name="cancellationToken">Cancels the wait; the frame is then not sent.</param>
    /// <returns>A task that completes when libzmq has accepted the frame.</returns>
    public ValueTask SendAsync(ReadOnlyMemory<byte> data, bool more = false, CancellationToken cancellationToken = default) =>
        WithoutResult(RunAsync(new SendSpanAttempt(data, more ? SendMoreFlag : 0), cancellationToken));

    /// <summary>Sends the frame held by <paramref name="message"/>, waiting without a thread while the high-water mark is reached.</summary>
    /// <param name="message">The frame; empty once sent.</param>
    /// <param name="more">True when more frames of the same multipart message follow.</param>
    /// <param name="cancellationToken">Cancels the wait; the message then keeps its frame.</param>
    /// <returns>A task that completes when libzmq has accepted the frame.</returns>
    public ValueTask SendAsync(ZmqMessage message, bool more = false, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(message);
        return WithoutResult(RunAsync(new SendMessageAttempt(message, more ? SendMoreFlag : 0), cancellationToken));
    }

    /// <summary>Sends a multipart message, waiting without a thread until the socket accepts it.</summary>
    /// <param name="frames">The frames, first to last; at least one; must not change until the task completes.</param>
    /// <param name="cancellationToken">Cancels the wait; nothing is then sent.</param>
    /// <returns>A task that completes when libzmq has accepted every frame.</returns>
    public ValueTask SendMultipartAsync(IReadOnlyList<ReadOnlyMemory<byte>> frames, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(frames);
        if (frames.Count == 0)
        {
            throw new ArgumentException("a multipart message needs at least one frame", nameof(frames));
        }

        return WithoutResult(RunAsync(new SendMultipartAttempt(frames), cancellationToken));
    }

    /// <summary>Receives every frame of the next multipart message as new arrays, waiting without a thread.</summary>
    /// <param name="frames">Cleared, then filled with the frames in order.</param>
    /// <param name="cancellationToken">Cancels the wait; no frame is lost.</param>
    /// <returns>A task that completes when the whole message is received.</returns>
    public ValueTask ReceiveMultipartAsync(List<byte[]> frames, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(frames);
        return WithoutResult(RunAsync(new ReceiveMultipartAttempt(frames), cancellationToken));
    }

    private static ValueTask WithoutResult(ValueTask<int> pending) =>
        pending.IsCompletedSuccessfully ? default : AwaitWithoutResult(pending);

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private static async ValueTask AwaitWithoutResult(ValueTask<int> pending) => await pending;

    private ValueTask<int> RunAsync<TAttempt>(TAttempt attempt, CancellationToken cancellationToken)
        where TAttempt : IAttempt
    {
        if (cancellationToken.IsCancellationRequested)
        {
            return ValueTask.FromCanceled<int>(cancellationToken);
        }

        Enter();
        int result;
        try
        {
            result = attempt.Try(this);
        }
        catch
        {
            Exit();
            throw;
        }

        if (result >= 0)
        {
            Exit();
            return new ValueTask<int>(result);
        }

        HoldByState();
        return WaitAndRetryAsync(attempt, cancellationToken);
    }

    /// <summary>
    /// Holds the socket claimed for the whole operation. While awaiting, the state is AsyncWaiting so that
    /// <see cref="Dispose"/> can close the socket and fail the wait, but other operations still see it as in use.
    /// </summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<int> WaitAndRetryAsync<TAttempt>(TAttempt attempt, CancellationToken cancellationToken)
        where TAttempt : IAttempt
    {
        try
        {
            var readiness = _readiness ??= new ZmqReadiness(_context.Reactor, RawNotificationFd(), _context.InlineCompletions);
            while (true)
            {
                var token = readiness.Arm();

                // The descriptor only fires on new edges, and a DONTWAIT send may skip pending commands (libzmq
                // throttles them), so an edge can already have been spent. ZMQ_EVENTS processes every pending
                // command and tells the truth; reading it after arming means any later change fires the armed wait.
                if ((RawEvents() & attempt.Needs) != 0)
                {
                    var result = attempt.Try(this);
                    if (result >= 0)
                    {
                        return result;
                    }

                    continue;
                }

                Volatile.Write(ref _state, AsyncWaiting);
                using (cancellationToken.UnsafeRegister(static (state, token) => ((ZmqReadiness)state!).Fail(new OperationCanceledException(token)), readiness))
                {
                    await new ValueTask(readiness, token).ConfigureAwait(false);
                }

                if (Interlocked.CompareExchange(ref _state, Busy, AsyncWaiting) != AsyncWaiting)
                {
                    throw new ObjectDisposedException(nameof(ZmqSocket));
                }
            }
        }
        finally
        {
            var state = _state;
            if (state is Busy or AsyncWaiting)
            {
                Interlocked.CompareExchange(ref _state, Idle, state);
            }
        }
    }

    /// <summary>Reads <c>ZMQ_FD</c> while the caller already holds the socket: a <c>SOCKET</c> on Windows, an <c>int</c> elsewhere.</summary>
    private unsafe nint RawNotificationFd()
    {
        if (!OperatingSystem.IsWindows())
        {
            return RawInt32Option(ZmqOption.Fd, "zmq_getsockopt(ZMQ_FD)");
        }

        nint value;
        var size = (nuint)sizeof(nint);
        while (LibZmq.GetSockOpt(_socket, (int)ZmqOption.Fd, &value, &size) != 0)
        {
            var error = LastError();
            if (error != ZmqErrors.Interrupted)
            {
                throw Failure(error, "zmq_getsockopt(ZMQ_FD)");
            }
        }

        return value;
    }

    /// <summary>Reads <c>ZMQ_EVENTS</c> while the caller already holds the socket.</summary>
    private ZmqPollEvents RawEvents() => (ZmqPollEvents)RawInt32Option(ZmqOption.Events, "zmq_getsockopt(ZMQ_EVENTS)");

    private unsafe int RawInt32Option(ZmqOption option, string operation)
    {
        int value;
        var size = (nuint)sizeof(int);
        while (LibZmq.GetSockOpt(_socket, (int)option, &value, &size) != 0)
        {
            var error = LastError();
            if (error != ZmqErrors.Interrupted)
            {
                throw Failure(error, operation);
            }
        }

        return value;
    }

    private readonly struct ReceiveSpanAttempt(Memory<byte> buffer) : IAttempt
    {
        public ZmqPollEvents Needs => ZmqPollEvents.In;

        public int Try(ZmqSocket socket) => socket.ReceiveCore(buffer.Span, DontWaitFlag);
    }

    private readonly unsafe struct ReceiveMessageAttempt(ZmqMessage message) : IAttempt
    {
        public ZmqPollEvents Needs => ZmqPollEvents.In;

        public int Try(ZmqSocket socket) => socket.ReceiveMessageCore(message.Pointer, DontWaitFlag) ? 0 : -1;
    }

    private readonly struct SendSpanAttempt(ReadOnlyMemory<byte> data, int flags) : IAttempt
    {
        public ZmqPollEvents Needs => ZmqPollEvents.Out;

        public int Try(ZmqSocket socket) => socket.SendCore(data.Span, DontWaitFlag | flags) ? 0 : -1;
    }

    private readonly unsafe struct SendMessageAttempt(ZmqMessage message, int flags) : IAttempt
    {
        public ZmqPollEvents Needs => ZmqPollEvents.Out;

        public int Try(ZmqSocket socket) => socket.SendMessageCore(message.Pointer, DontWaitFlag | flags) ? 0 : -1;
    }

    private readonly struct SendMultipartAttempt(IReadOnlyList<ReadOnlyMemory<byte>> frames) : IAttempt
    {
        public ZmqPollEvents Needs => ZmqPollEvents.Out;

        public int Try(ZmqSocket socket)
        {
            var last = frames.Count - 1;
            if (!socket.SendCore(frames[0].Span, DontWaitFlag | (last > 0 ? SendMoreFlag : 0)))
            {
                return -1;
            }

            // Once the first frame is accepted libzmq takes the rest of the message without blocking.
            for (var i = 1; i <= last; i++)
            {
                socket.SendCore(frames[i].Span, i < last ? SendMoreFlag : 0);
            }

            return 0;
        }
    }

    private readonly unsafe struct ReceiveMultipartAttempt(List<byte[]> frames) : IAttempt
    {
        public ZmqPollEvents Needs => ZmqPollEvents.In;

        public int Try(ZmqSocket socket)
        {
            var msg = socket.Scratch;
            if (!socket.ReceiveMessageCore(msg, DontWaitFlag))
            {
                return -1;
            }

            frames.Clear();
            frames.Add(new ReadOnlySpan<byte>(LibZmq.MsgData(msg), (int)LibZmq.MsgSize(msg)).ToArray());

            // The frames of one message arrive together, so the rest are already queued.
            while (LibZmq.MsgMore(msg) != 0)
            {
                socket.ReceiveMessageCore(msg, 0);
                frames.Add(new ReadOnlySpan<byte>(LibZmq.MsgData(msg), (int)LibZmq.MsgSize(msg)).ToArray());
            }

            return frames.Count;
        }
    }
}
