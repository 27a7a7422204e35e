using System.Diagnostics;

namespace Berth.Cli.Compare;

/// <summary>Connections the load generator holds open after one round trip each; disposing closes them.</summary>
internal sealed class IdleConnections(Process holder, int echoed, long errors) : IAsyncDisposable
{
    private static readonly TimeSpan CloseTimeout = TimeSpan.FromSeconds(30);

    /// <summary>Connections that completed their round trip and stay open.</summary>
    public int Echoed { get; } = echoed;

    /// <summary>Connections refused, closed or answered wrongly.</summary>
    public long Errors { get; } = errors;

    public async ValueTask DisposeAsync()
    {
        // The holder exits when its standard input closes.
        holder.StandardInput.Close();
        try
        {
            await holder.WaitForExitAsync().WaitAsync(CloseTimeout);
        }
        catch (TimeoutException)
        {
            holder.Kill();
            await holder.WaitForExitAsync();
        }

        holder.Dispose();
    }
}
