/* The native side of the interop benchmarks: three calls that touch every byte of a buffer,
   so a benchmark pays for the transition plus a memory pass proportional to the size. */
#include <stdint.h>

uint32_t berth_send(const uint8_t *data, int32_t length)
{
    uint32_t sum = 0;
    for (int32_t i = 0; i < length; i++)
        sum += data[i];
    return sum;
}

void berth_recv(uint8_t *data, int32_t length, uint8_t seed)
{
    for (int32_t i = 0; i < length; i++)
        data[i] = (uint8_t)(seed + i);
}

void berth_transform(uint8_t *data, int32_t length, uint8_t key)
{
    for (int32_t i = 0; i < length; i++)
        data[i] ^= key;
}
