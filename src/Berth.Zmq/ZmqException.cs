using System.Runtime.InteropServices;
using Berth.Zmq.Native;

namespace Berth.Zmq;

/// <summary>A libzmq call failed; <see cref="ErrorCode"/> is the <c>zmq_errno()</c> value.</summary>
public sealed class ZmqException : Exception
{
    /// <summary>Creates the exception for an errno value and a description of the failed operation.</summary>
    /// <param name="errorCode">The <c>zmq_errno()</c> value.</param>
    /// <param name="message">What failed, including the libzmq error text.</param>
    public ZmqException(int errorCode, string message)
        : base(message) => ErrorCode = errorCode;

    /// <summary>The <c>zmq_errno()</c> value (POSIX errno or a libzmq-specific code such as ETERM).</summary>
    public int ErrorCode { get; }

    /// <summary>True when the failure was caused by the context shutting down (ETERM).</summary>
    public bool IsContextTerminated => ErrorCode == ZmqErrors.Terminated;

    internal static unsafe string Describe(int errorCode) =>
        Marshal.PtrToStringUTF8((nint)LibZmq.StrError(errorCode)) ?? $"error {errorCode}";

    internal static ZmqException FromErrno(string operation)
    {
        var error = LibZmq.Errno();
        return new ZmqException(error, $"{operation}: {Describe(error)}");
    }
}
