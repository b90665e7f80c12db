//! RDRAND and RDSEED as planet36/randp's `rdrand32`/`rdseed32` wrappers:
//! one `_rdrand32_step`/`_rdseed32_step`, retried until the CPU reports success.
//! Only for the comparison rows; randp itself uses neither.

/// Which of the two instructions this CPU has.
#[derive(Clone, Copy)]
pub struct Hw {
    rdrand: bool,
    rdseed: bool,
}

impl Hw {
    /// Detects the instructions at run time and notes a missing one.
    pub fn detect() -> Self {
        #[cfg(target_arch = "x86_64")]
        let hw = Hw {
            rdrand: std::arch::is_x86_feature_detected!("rdrand"),
            rdseed: std::arch::is_x86_feature_detected!("rdseed"),
        };
        #[cfg(not(target_arch = "x86_64"))]
        let hw = Hw { rdrand: false, rdseed: false };
        if !hw.rdrand {
            eprintln!("note: no RDRAND on this CPU; rdrand32 row skipped");
        }
        if !hw.rdseed {
            eprintln!("note: no RDSEED on this CPU; rdseed32 row skipped");
        }
        hw
    }

    /// Whether `rdrand32` may be called.
    pub fn has_rdrand(&self) -> bool {
        self.rdrand
    }

    /// Whether `rdseed32` may be called.
    pub fn has_rdseed(&self) -> bool {
        self.rdseed
    }

    /// One RDRAND value (retried on the carry-clear failure).
    #[cfg(target_arch = "x86_64")]
    pub fn rdrand32(&self) -> u32 {
        assert!(self.rdrand);
        // SAFETY: the CPU was detected to support RDRAND.
        unsafe { rdrand32() }
    }

    /// One RDSEED value (retried on the carry-clear failure).
    #[cfg(target_arch = "x86_64")]
    pub fn rdseed32(&self) -> u32 {
        assert!(self.rdseed);
        // SAFETY: the CPU was detected to support RDSEED.
        unsafe { rdseed32() }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "rdrand")]
fn rdrand32() -> u32 {
    let mut v = 0u32;
    // Safe inside a function compiled with RDRAND enabled.
    while core::arch::x86_64::_rdrand32_step(&mut v) != 1 {}
    v
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "rdseed")]
fn rdseed32() -> u32 {
    let mut v = 0u32;
    // Safe inside a function compiled with RDSEED enabled.
    while core::arch::x86_64::_rdseed32_step(&mut v) != 1 {}
    v
}
