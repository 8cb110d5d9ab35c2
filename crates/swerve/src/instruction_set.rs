//! Which instructions the ORCA step's hottest loops run with.
//!
//! swerve is compiled for its target's baseline (SSE2 on x86-64), so that one build runs on
//! every CPU of the target. The step's two hottest loops, the decide loop (neighbours,
//! half-planes, linear programs) and the neighbour grid's candidate scan, are compiled a second
//! time for AVX2 and BMI, and that copy runs when the CPU has them: the same operations in
//! fewer instructions (three-operand VEX forms; BMI's bit operations). On jgrid that is 8.5 %
//! fewer instructions and 6.6–9.2 % less time a step (docs/orca-performance-log.md, tenth
//! round). Other targets than x86-64 have the baseline only.
//!
//! Both copies give the same bits. Rust performs every floating-point operation as written
//! (it never fuses a multiply and an add on its own, and FMA is not enabled here anyway), and
//! the SIMD types of `wide` choose their instructions when the crate is compiled, not per
//! function; so both copies run the same IEEE operations in the same order. The reference
//! replays and the RVO2 peer test run under both, and a property test compares the two step
//! by step (`tests/orca_properties.rs`).

/// The instruction sets the ORCA step's hot loops can run with (see
/// [`Simulator::set_instruction_set`](crate::Simulator::set_instruction_set)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InstructionSet {
    /// The target's baseline (SSE2 on x86-64): every CPU of the target.
    Baseline,
    /// AVX2 with AVX, BMI1, BMI2, LZCNT, POPCNT and SSE3 to SSE4.2 (x86-64-v3 without FMA;
    /// Intel since Haswell, AMD since Excavator and Zen).
    Avx2,
}

impl InstructionSet {
    /// Every instruction set, baseline first.
    pub const ALL: [InstructionSet; 2] = [InstructionSet::Baseline, InstructionSet::Avx2];

    /// The best instruction set this CPU supports: what a new simulator uses.
    pub fn best_supported() -> InstructionSet {
        if InstructionSet::Avx2.is_supported() {
            InstructionSet::Avx2
        } else {
            InstructionSet::Baseline
        }
    }

    /// Whether this CPU can run it.
    pub fn is_supported(self) -> bool {
        match self {
            InstructionSet::Baseline => true,
            InstructionSet::Avx2 => Avx2Detected::detect().is_some(),
        }
    }

    /// The instruction set named `name` ([`InstructionSet::name`]), if any.
    pub fn by_name(name: &str) -> Option<InstructionSet> {
        InstructionSet::ALL.into_iter().find(|set| set.name() == name)
    }

    /// Its name: `baseline` or `avx2`.
    pub fn name(self) -> &'static str {
        match self {
            InstructionSet::Baseline => "baseline",
            InstructionSet::Avx2 => "avx2",
        }
    }
}

/// Proof that this CPU has every feature [`avx2_copy!`]'s functions are compiled with: the
/// only way to make one is [`Avx2Detected::detect`], so holding one makes calling them sound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2Detected(());

impl Avx2Detected {
    /// `Some` when the CPU has the features (std caches the detection: an atomic load).
    #[inline]
    pub(crate) fn detect() -> Option<Avx2Detected> {
        #[cfg(target_arch = "x86_64")]
        {
            let has_all = std::arch::is_x86_feature_detected!("avx")
                && std::arch::is_x86_feature_detected!("avx2")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("sse3")
                && std::arch::is_x86_feature_detected!("ssse3")
                && std::arch::is_x86_feature_detected!("sse4.1")
                && std::arch::is_x86_feature_detected!("sse4.2");
            if has_all {
                return Some(Avx2Detected(()));
            }
        }
        None
    }

    /// The proof when `set` asks for AVX2 and the CPU has it.
    #[inline]
    pub(crate) fn for_set(set: InstructionSet) -> Option<Avx2Detected> {
        match set {
            InstructionSet::Baseline => None,
            InstructionSet::Avx2 => Avx2Detected::detect(),
        }
    }
}

/// Defines `$name`, a copy of the function `$body` (which should be `#[inline(always)]`, so
/// that it and everything it inlines is compiled again) for the features [`Avx2Detected`]
/// checks. The copy takes the proof as its first argument, and so is safe to call.
macro_rules! avx2_copy {
    ($(#[$attr:meta])* fn $name:ident $(<$lt:lifetime>)? ($($arg:ident: $ty:ty),* $(,)?) -> $ret:ty = $body:path;) => {
        $(#[$attr])*
        #[allow(clippy::too_many_arguments)]
        fn $name $(<$lt>)? (proof: $crate::instruction_set::Avx2Detected, $($arg: $ty),*) -> $ret {
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx,avx2,bmi1,bmi2,lzcnt,popcnt,sse3,ssse3,sse4.1,sse4.2")]
                #[allow(clippy::too_many_arguments)]
                unsafe fn copy $(<$lt>)? ($($arg: $ty),*) -> $ret {
                    $body($($arg),*)
                }
                let _ = proof;
                // SAFETY: `proof` exists only where `Avx2Detected::detect` found every
                // feature enabled above on this CPU.
                unsafe { copy($($arg),*) }
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                let _ = proof;
                $body($($arg),*)
            }
        }
    };
}
pub(crate) use avx2_copy;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AgentParams, Simulator};

    #[test]
    fn sets_go_by_their_names_and_a_simulator_takes_exactly_the_supported_ones() {
        assert_eq!(InstructionSet::ALL[0], InstructionSet::Baseline);
        for set in InstructionSet::ALL {
            assert_eq!(InstructionSet::by_name(set.name()), Some(set));
        }
        assert_eq!(InstructionSet::by_name("AVX2"), None);
        assert!(InstructionSet::Baseline.is_supported());
        let mut sim = Simulator::new(0.25, AgentParams::default()).unwrap();
        assert_eq!(sim.instruction_set(), InstructionSet::best_supported());
        // From the best set down to the baseline, each from a different one: a refused set
        // leaves the simulator as it was.
        for set in InstructionSet::ALL.into_iter().rev() {
            let before = if set == InstructionSet::Baseline {
                InstructionSet::best_supported()
            } else {
                InstructionSet::Baseline
            };
            sim.set_instruction_set(before).unwrap();
            let result = sim.set_instruction_set(set);
            assert_eq!(result.is_ok(), set.is_supported(), "{set:?}");
            assert_eq!(sim.instruction_set(), if set.is_supported() { set } else { before });
            assert_eq!(
                Avx2Detected::for_set(sim.instruction_set()).is_some(),
                sim.instruction_set() == InstructionSet::Avx2
            );
        }
    }
}
