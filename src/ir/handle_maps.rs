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

/// Hashes short keys (symbol names, tuples of handles) a word at a time, as
/// rustc's FxHasher does: SipHash's resistance to crafted keys buys nothing
/// for the names of one module and cost ~100 instructions per lookup (#16).
#[derive(Default)]
pub struct NameHasher(u64);

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl NameHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for NameHasher {
    fn finish(&self) -> u64 {
        // The multiply leaves the low bits weakest; hashbrown takes its
        // bucket from the low bits and its tag from the top 7.
        let x = self.0;
        (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (x >> 32)
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.add(u64::from_le_bytes(c.try_into().expect("8 bytes")));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut word = [0u8; 8];
            word[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, b: u8) {
        self.add(u64::from(b));
    }
    fn write_usize(&mut self, key: usize) {
        self.add(key as u64);
    }
}

/// A map keyed by names (or other short keys) with [`NameHasher`].
pub type NameMap<K, V> = HashMap<K, V, BuildHasherDefault<NameHasher>>;
/// A set of names with [`NameHasher`].
pub type NameSet<K> = std::collections::HashSet<K, BuildHasherDefault<NameHasher>>;

#[cfg(test)]
mod tests {
    use super::{NameMap, NameSet, PtrMap};

    #[test]
    fn aligned_keys_do_not_collide_in_low_bits() {
        let mut map = PtrMap::default();
        for i in 0..10_000usize {
            map.insert(0x5555_0000_0000 + i * 64, i);
        }
        assert_eq!(map.len(), 10_000);
        assert_eq!(map[&(0x5555_0000_0000 + 64 * 1234)], 1234);
    }

    #[test]
    fn names_hash_apart_and_look_up() {
        let mut map: NameMap<String, usize> = NameMap::default();
        for i in 0..10_000usize {
            map.insert(format!("chip{i}"), i);
        }
        assert_eq!(map.len(), 10_000);
        assert_eq!(map["chip1234"], 1234);
        assert!(!map.contains_key("chip10000"));
        // Keys that differ only past the first word, or only in length.
        let mut set: NameSet<&str> = NameSet::default();
        for k in ["stage_step", "stage_stepx", "stage_ste", "", "a", "a\0"] {
            assert!(set.insert(k));
        }
        assert!(!set.insert("stage_step"));
        // Tuples of handles.
        let mut tuples: NameMap<(usize, usize, usize), usize> = NameMap::default();
        for i in 0..1000usize {
            tuples.insert((64 * i, 64, 128), i);
            tuples.insert((64, 64 * i, 128), i + 1000);
        }
        assert_eq!(tuples.len(), 1999);
        assert_eq!(tuples[&(64 * 7, 64, 128)], 7);
    }
}
