//! A machine profile as `--machine FILE.json` reads it, then a short simulation on it. Seeded
//! from fuzz/seeds/profile.json.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = timestep_lab::fuzz::profile("machine_profile", data) {
        panic!("{e}");
    }
});
