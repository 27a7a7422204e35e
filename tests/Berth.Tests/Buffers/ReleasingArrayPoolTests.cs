using Berth.Buffers;

namespace Berth.Tests.Buffers;

public sealed class ReleasingArrayPoolTests
{
    private static readonly TimeSpan Never = Timeout.InfiniteTimeSpan;

    [Theory]
    [InlineData(1, 16)]
    [InlineData(16, 16)]
    [InlineData(17, 32)]
    [InlineData(4096, 4096)]
    [InlineData(65_537, 131_072)]
    public void RentsThePowerOfTwoSizeAndReusesWhatCameBack(int asked, int length)
    {
        var pool = new ReleasingArrayPool(1 << 20, 1 << 20, Never);
        var array = pool.Rent(asked);
        Assert.Equal(length, array.Length);
        pool.Return(array);
        Assert.Equal(length, pool.RetainedBytes);
        Assert.Same(array, pool.Rent(asked));
        Assert.Equal(0, pool.RetainedBytes);
    }

    [Fact]
    public void ReleasesOnlyWhatStayedUnusedForAWholeIntervalBeyondTwiceItsBusiestMoment()
    {
        var pool = new ReleasingArrayPool(1 << 20, 1 << 20, Never);
        var burst = Enumerable.Range(0, 10).Select(_ => pool.Rent(4096)).ToList();
        burst.ForEach(a => pool.Return(a));
        Assert.Equal(10 * 4096, pool.RetainedBytes);

        Assert.Equal(0, pool.ReleaseUnused());
        var steady = Enumerable.Range(0, 3).Select(_ => pool.Rent(4096)).ToList();
        steady.ForEach(a => pool.Return(a));

        // Three out at once: six are kept, the other four stayed unused.
        Assert.Equal(4 * 4096, pool.ReleaseUnused());
        Assert.Equal(6 * 4096, pool.RetainedBytes);
        Assert.Equal(6 * 4096, pool.ReleaseUnused());
        Assert.Equal(0, pool.RetainedBytes);
    }

    [Fact]
    public void ASteadyLoadWhoseBusiestMomentVariesRentsOnlyArraysItHadBefore()
    {
        // Each interval the load has 8 arrays out at its busiest moment, then 6 in the next, and so on: a pool that
        // released the 2 a quieter interval left unused allocated them again in the next busier one, for good.
        var pool = new ReleasingArrayPool(1 << 20, 1 << 20, Never);
        var seen = new HashSet<byte[]>(ReferenceEqualityComparer.Instance);
        var fresh = 0;
        for (var interval = 0; interval < 20; interval++)
        {
            var busiest = interval % 2 == 0 ? 8 : 6;
            var rented = Enumerable.Range(0, busiest).Select(_ => pool.Rent(65_536)).ToList();
            fresh += interval == 0 ? 0 : rented.Count(a => !seen.Contains(a));
            rented.ForEach(a => seen.Add(a));
            rented.ForEach(a => pool.Return(a));
            pool.ReleaseUnused();
        }

        Assert.Equal(0, fresh);
        Assert.Equal(8 * 65_536, pool.RetainedBytes);
    }

    [Fact]
    public void ArraysOutAtTheIntervalsEndCountTowardsTheNextOnesBusiestMoment()
    {
        var pool = new ReleasingArrayPool(1 << 20, 1 << 20, Never);
        var spare = Enumerable.Range(0, 6).Select(_ => pool.Rent(4096)).ToList();
        spare.ForEach(a => pool.Return(a));
        var held = Enumerable.Range(0, 2).Select(_ => pool.Rent(4096)).ToList();
        pool.ReleaseUnused();

        // Two stay out all interval long: four arrays in all, two of them free.
        Assert.Equal(2 * 4096, pool.ReleaseUnused());
        Assert.Equal(2 * 4096, pool.RetainedBytes);
        held.ForEach(a => pool.Return(a));
    }

    [Fact]
    public void KeepsNoMoreFreeBytesPerSizeThanItsBound()
    {
        var pool = new ReleasingArrayPool(1 << 20, 4 * 4096, Never);
        var arrays = Enumerable.Range(0, 10).Select(_ => pool.Rent(4096)).ToList();
        arrays.ForEach(a => pool.Return(a));
        Assert.Equal(4 * 4096, pool.RetainedBytes);
    }

    [Fact]
    public void ArraysOverTheMaximumAreNotKept()
    {
        var pool = new ReleasingArrayPool(65_536, 1 << 20, Never);
        var array = pool.Rent(65_537);
        Assert.Equal(65_537, array.Length);
        pool.Return(array);
        Assert.Equal(0, pool.RetainedBytes);
    }

    [Fact]
    public void AnArrayOfAnotherSizeIsRefused()
    {
        var pool = new ReleasingArrayPool(65_536, 1 << 20, Never);
        Assert.Throws<ArgumentException>(() => pool.Return(new byte[100]));
    }

    [Fact]
    public async Task TheTimerReleasesABurstOnItsOwn()
    {
        var pool = new ReleasingArrayPool(1 << 20, 1 << 20, TimeSpan.FromMilliseconds(20));
        var burst = Enumerable.Range(0, 10).Select(_ => pool.Rent(4096)).ToList();
        burst.ForEach(a => pool.Return(a));
        await Tcp.Waits.Until(() => pool.RetainedBytes == 0);
    }

    [Fact]
    public void TheCountingPoolReportsWhatItsArrayPoolRetains()
    {
        var pool = new BufferPool(new ReleasingArrayPool(1 << 20, 1 << 20, Never));
        pool.Return(pool.Rent(1000));
        Assert.Equal(1024, pool.RetainedBytes);
        Assert.Equal(0, pool.Outstanding);
        Assert.Equal(1, pool.TotalRented);
        Assert.Null(new BufferPool().RetainedBytes);
    }
}
