// The allocation test counts bytes allocated process-wide, so no other test of this assembly may run beside it.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
