namespace Berth.Zmq.Native;

/// <summary>The 64-byte, pointer-aligned <c>zmq_msg_t</c>; lives on the stack or in a reusable block, never allocated per message.</summary>
internal unsafe struct ZmqMsg
{
    private fixed long _storage[8];
}
