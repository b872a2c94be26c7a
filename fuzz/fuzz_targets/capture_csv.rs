//! The CSV captures: PresentMon (its three column sets), MangoHud, and our own --trace and
//! --frame-log, from `Rows::open` to the lanes' replay. Seeded from tests/data/presentmon,
//! tests/data/fixtures/mangohud_*.csv and fuzz/seeds/{trace,frame_log}.csv.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = timestep_lab::fuzz::capture("capture_csv", data) {
        panic!("{e}");
    }
});
