namespace Berth.Tests.Tcp;

/// <summary>Generous limits that only keep a broken test from hanging; nothing here asserts speed.</summary>
internal static class Waits
{
    public static readonly TimeSpan Patience = TimeSpan.FromSeconds(30);

    public static Task<T> Within<T>(this Task<T> task) => task.WaitAsync(Patience);

    public static Task Within(this Task task) => task.WaitAsync(Patience);

    public static async Task Until(Func<bool> condition)
    {
        var giveUp = DateTime.UtcNow + Patience;
        while (!condition())
        {
            if (DateTime.UtcNow > giveUp)
            {
                throw new TimeoutException("The condition never became true.");
            }

            await Task.Delay(5);
        }
    }
}
