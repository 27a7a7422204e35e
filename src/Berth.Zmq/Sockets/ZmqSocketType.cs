namespace Berth.Zmq;

/// <summary>The twelve standard ZeroMQ socket types (values are libzmq's).</summary>
public enum ZmqSocketType
{
    /// <summary>Exclusive pair, one peer.</summary>
    Pair = 0,

    /// <summary>Publisher: sends to every matching subscriber, never blocks.</summary>
    Pub = 1,

    /// <summary>Subscriber: receives messages whose first frame starts with a subscribed topic.</summary>
    Sub = 2,

    /// <summary>Request: strict send, receive, send, ... with one peer at a time.</summary>
    Req = 3,

    /// <summary>Reply: strict receive, send, receive, ... answering the peer that asked.</summary>
    Rep = 4,

    /// <summary>Asynchronous request: round-robin send, fair-queued receive.</summary>
    Dealer = 5,

    /// <summary>Asynchronous reply: every received message is prefixed with the sender's routing id.</summary>
    Router = 6,

    /// <summary>Pipeline sink: fair-queued receive.</summary>
    Pull = 7,

    /// <summary>Pipeline source: round-robin send.</summary>
    Push = 8,

    /// <summary>Publisher that also receives subscription messages.</summary>
    XPub = 9,

    /// <summary>Subscriber that sends subscriptions as messages.</summary>
    XSub = 10,

    /// <summary>Raw TCP: each message is a routing id frame then the bytes.</summary>
    Stream = 11,
}
