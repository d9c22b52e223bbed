"""Java's ``java.util.Random``: the 48-bit linear congruential generator, bit for bit.

The Logist platform draws a configuration's tasks with one ``java.util.Random(rngSeed)``; this
class gives the same numbers for the same seed, so apdp draws the same tasks.
"""

from __future__ import annotations

_MULTIPLIER = 0x5DEECE66D
_ADDEND = 0xB
_MASK = (1 << 48) - 1
_DOUBLE_UNIT = 2.0**-53


def _int32(value: int) -> int:
    """``value`` wrapped to a Java ``int`` (two's complement, 32 bits)."""
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


class JavaRandom:
    """A ``java.util.Random`` created with ``seed`` (any Java ``long``)."""

    def __init__(self, seed: int) -> None:
        self._seed = (seed ^ _MULTIPLIER) & _MASK

    def next(self, bits: int) -> int:
        """The next ``bits`` (1 to 32) random bits, as Java's protected ``next(bits)``."""
        if not 1 <= bits <= 32:
            raise ValueError(f"bits must be in 1..32, got {bits}")
        self._seed = (self._seed * _MULTIPLIER + _ADDEND) & _MASK
        return _int32(self._seed >> (48 - bits))

    def next_int(self, bound: int | None = None) -> int:
        """``nextInt()`` (any Java ``int``) or ``nextInt(bound)`` (0 <= n < bound)."""
        if bound is None:
            return self.next(32)
        if bound <= 0:
            raise ValueError(f"bound must be positive, got {bound}")
        if bound & -bound == bound:  # a power of two: the high bits
            return (bound * self.next(31)) >> 31
        while True:
            bits = self.next(31)
            value = bits % bound
            if bits - value + (bound - 1) < 1 << 31:
                return value

    def next_double(self) -> float:
        """``nextDouble()``: uniform in [0, 1), 53 random bits."""
        return ((self.next(26) << 27) + self.next(27)) * _DOUBLE_UNIT
