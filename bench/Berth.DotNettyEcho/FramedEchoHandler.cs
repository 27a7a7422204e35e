using DotNetty.Transport.Channels;

namespace Berth.DotNettyEcho;

/// <summary>
/// Writes every frame the decoder hands over back as it came (length prefix included), and flushes once per read,
/// as DotNetty's echo example does. A decoding error (an oversized frame) closes the connection.
/// </summary>
internal sealed class FramedEchoHandler : ChannelHandlerAdapter
{
    public override bool IsSharable => true;

    public override void ChannelRead(IChannelHandlerContext context, object message) => context.WriteAsync(message);

    public override void ChannelReadComplete(IChannelHandlerContext context) => context.Flush();

    public override void ExceptionCaught(IChannelHandlerContext context, Exception exception) => context.CloseAsync();
}
