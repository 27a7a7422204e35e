using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>Runs libzmq's built-in proxy (<c>zmq_proxy_steerable</c>) between two sockets.</summary>
public static class ZmqProxy
{
    /// <summary>
    /// Forwards messages both ways between <paramref name="frontend"/> and <paramref name="backend"/> on the calling
    /// thread until a <c>TERMINATE</c> frame arrives on <paramref name="control"/> or the context shuts down.
    /// </summary>
    /// <param name="frontend">Usually a ROUTER (clients connect here).</param>
    /// <param name="backend">Usually a DEALER (workers connect here).</param>
    /// <param name="capture">Optional socket that receives a copy of every forwarded frame.</param>
    /// <param name="control">Optional socket receiving <c>PAUSE</c>, <c>RESUME</c> or <c>TERMINATE</c>.</param>
    public static void Run(ZmqSocket frontend, ZmqSocket backend, ZmqSocket? capture = null, ZmqSocket? control = null)
    {
        ArgumentNullException.ThrowIfNull(frontend);
        ArgumentNullException.ThrowIfNull(backend);
        ZmqSocket?[] sockets = [frontend, backend, capture, control];
        var pointers = new nint[sockets.Length];
        var claimed = 0;
        try
        {
            for (; claimed < sockets.Length; claimed++)
            {
                pointers[claimed] = sockets[claimed]?.EnterForPoll() ?? 0;
            }

            int rc;
            while ((rc = LibZmq.ProxySteerable(pointers[0], pointers[1], pointers[2], pointers[3])) != 0)
            {
                var error = LibZmq.Errno();
                if (error == ZmqErrors.Terminated)
                {
                    return;
                }

                if (error != ZmqErrors.Interrupted)
                {
                    throw new ZmqException(error, $"zmq_proxy_steerable: {ZmqException.Describe(error)}");
                }
            }
        }
        finally
        {
            for (var i = 0; i < claimed; i++)
            {
                sockets[i]?.ExitAfterPoll();
            }
        }
    }
}
