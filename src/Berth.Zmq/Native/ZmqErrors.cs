namespace Berth.Zmq.Native;

/// <summary>The errno values the binding reacts to.</summary>
internal static class ZmqErrors
{
    private const int HausNumero = 156384712;

    public const int Interrupted = 4;
    public const int Again = 11;
    public const int HostUnreachable = 113;
    public const int Terminated = HausNumero + 53;
    public const int NoThread = HausNumero + 54;
    public const int FiniteStateMachine = HausNumero + 51;
}
