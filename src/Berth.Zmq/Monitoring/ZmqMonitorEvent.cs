namespace Berth.Zmq;

/// <summary>One event from a <see cref="ZmqMonitor"/>.</summary>
/// <param name="Event">What happened.</param>
/// <param name="Value">The event's value: a file descriptor, an errno, an interval or a protocol error code.</param>
/// <param name="Endpoint">The endpoint the event concerns.</param>
public readonly record struct ZmqMonitorEvent(ZmqMonitorEvents Event, int Value, string Endpoint);
