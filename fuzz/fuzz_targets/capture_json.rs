//! CapFrameX session JSON, from `Rows::open` to the lanes' replay (the same path as the CSV
//! captures; a target of its own so its corpus stays JSON). Seeded from
//! tests/data/fixtures/capframex.json.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = timestep_lab::fuzz::capture("capture_json", data) {
        panic!("{e}");
    }
});
