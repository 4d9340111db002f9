//! Hash maps keyed by IR handles (pointers): a cheap mixing hasher instead of
//! SipHash, which dominated the trace's profile at 100k collectives.

use std::{
    collections::HashMap,
    hash::{BuildHasherDefault, Hasher},
};

/// Hashes one pointer-sized key with a splitmix64 finalizer.
#[derive(Default)]
pub struct PtrHasher(u64);

impl Hasher for PtrHasher {
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | self.0 >> 56) ^ u64::from(b);
        }
    }
    fn write_usize(&mut self, key: usize) {
        self.0 ^= key as u64;
    }
}

/// A map from an IR handle's address to `V`.
pub type PtrMap<V> = HashMap<usize, V, BuildHasherDefault<PtrHasher>>;

#[cfg(test)]
mod tests {
    use super::PtrMap;

    #[test]
    fn aligned_keys_do_not_collide_in_low_bits() {
        let mut map = PtrMap::default();
        for i in 0..10_000usize {
            map.insert(0x5555_0000_0000 + i * 64, i);
        }
        assert_eq!(map.len(), 10_000);
        assert_eq!(map[&(0x5555_0000_0000 + 64 * 1234)], 1234);
    }
}
