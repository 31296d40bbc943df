"""Pure-Python twin of the engine's generator (rust/src/rng.rs): xoshiro256++ seeded by SplitMix64,
Lemire bounded integers, Fisher-Yates from the end. Same seed, same numbers."""

from __future__ import annotations

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(x: int) -> int:
    z = (x + GOLDEN) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def derive_seed(seed: int, index: int) -> int:
    return mix64((seed & MASK) ^ mix64(index & MASK))


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


class Rng:
    __slots__ = ("s",)

    def __init__(self, seed: int) -> None:
        x = seed & MASK
        s = []
        for _ in range(4):
            s.append(mix64(x))
            x = (x + GOLDEN) & MASK
        self.s = s

    def copy(self) -> "Rng":
        r = Rng.__new__(Rng)
        r.s = list(self.s)
        return r

    def next_u64(self) -> int:
        s = self.s
        result = (_rotl((s[0] + s[3]) & MASK, 23) + s[0]) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        return result

    def below(self, n: int) -> int:
        m = self.next_u64() * n
        low = m & MASK
        if low < n:
            threshold = ((1 << 64) - n) % n
            while low < threshold:
                m = self.next_u64() * n
                low = m & MASK
        return m >> 64

    def shuffle(self, items: list) -> None:  # type: ignore[type-arg]
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
