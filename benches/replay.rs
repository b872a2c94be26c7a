//! Replaying captures: how fast a capture is read (a pass over a PresentMon capture, in MB/s),
//! and a 120 s capture of 20,000 frames through every mode and preset against `simulate` of the
//! same length and lanes, in one run.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::io::Write;
use std::path::{Path, PathBuf};
use timestep_lab::hosts::replay::{self, ReplayConfig, Rows};
use timestep_lab::hosts::simulate::{self, DisplayConfig, SimConfig};
use timestep_lab::model::lane::LaneSpec;
use timestep_lab::model::rope::RopeParams;
use timestep_loop::{NS_PER_S, TimingConfig};

/// A PresentMon capture (the current set's gold columns, as PresentMon writes them) of `frames`
/// frames of one game over `seconds`, beside a compositor's, a dropped frame in every 50.
fn capture(frames: u64, seconds: u64) -> PathBuf {
    let path = std::env::temp_dir().join(format!("timestep-rope-bench-{frames}.csv"));
    let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    writeln!(out, "\u{feff}Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,AllowsTearing,PresentMode,FrameType,TimeInQPC,MsBetweenSimulationStart,MsBetweenPresents,MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,MsPCLatency,CPUStartQPC,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,MsGPUBusy,MsGPUWait,MsVideoBusy,MsAnimationError,AnimationTime,MsFlipDelay,MsAllInputToPhotonLatency,MsClickToPhotonLatency,MsInstrumentedLatency").unwrap();
    let period = seconds * 10_000_000 / frames;
    for i in 0..frames {
        let start = 20_000_000 + i * period + (i * 7919 % 13) * 100;
        let until = if i % 50 == 49 {
            "NA".to_string()
        } else {
            format!("{:.4}", 6.0 + (i % 5) as f64 * 0.1)
        };
        let present = start + 32_500;
        for (app, pid) in [("game.exe", 42), ("dwm.exe", 7)] {
            writeln!(out, "{app},{pid},0x1F00,DXGI,1,0,0,Composed: Flip,Application,{present},NA,{:.14},16.68000000000000,0.20000000000000,9.10000000000000,{until},NA,{start},{:.4},3.2500,0.2000,0.5000,4.0000,4.0000,0.0000,0.0000,-0.0100,{:.4},NA,NA,NA,NA", period as f64 / 1e4, period as f64 / 1e4, i as f64 * 16.0).unwrap();
        }
    }
    out.flush().unwrap();
    path
}

/// One pass over `path`: every row read, its numbers parsed.
fn read_all(path: &Path) -> u64 {
    let mut rows = Rows::open(path).unwrap();
    let mut n = 0;
    while let Some(row) = rows.next_row().unwrap() {
        n += row.frame.start_ns & 1;
    }
    n
}

fn read(c: &mut Criterion) {
    let path = capture(100_000, 1_600);
    let bytes = std::fs::metadata(&path).unwrap().len();
    let mut group = c.benchmark_group("read");
    group.sample_size(10);
    group.throughput(Throughput::Bytes(bytes));
    group.bench_function("presentmon pass", |b| b.iter(|| read_all(&path)));
    group.finish();
}

fn replay_against_simulate(c: &mut Criterion) {
    let lanes = [LaneSpec::every_mode(), LaneSpec::every_preset()].concat();
    let path = capture(20_000, 120);
    let cfg = ReplayConfig {
        capture: path.clone(),
        app: None,
        swapchain: None,
        timing: TimingConfig::textbook(1_000_000, 250_000_000, None).unwrap(),
        rope: RopeParams::default(),
        lanes: lanes.clone(),
        max_substep: Default::default(),
        feedback_delay: timestep_lab::protocol::feedback::FEEDBACK_DELAY,
    };
    let sim = SimConfig {
        timing: TimingConfig::textbook(1_000_000, 250_000_000, None).unwrap(),
        rope: RopeParams::default(),
        display: DisplayConfig {
            display_hz: 20_000.0 / 120.0,
            duration_ns: 120 * NS_PER_S,
            ..DisplayConfig::default()
        },
        lanes,
        max_substep: Default::default(),
        draw: None,
        physics: true,
    };
    let mut group = c.benchmark_group("120s_20000_frames_modes_and_presets");
    group.sample_size(10);
    group.bench_function("replay", |b| {
        b.iter(|| {
            let (selection, summary) = replay::open(&path, None, None).unwrap();
            replay::run(&cfg, &selection, &summary).unwrap()
        })
    });
    group.bench_function("simulate", |b| {
        b.iter(|| simulate::run(&sim, |_| {}).unwrap())
    });
    group.finish();
}

criterion_group!(group, read, replay_against_simulate);
criterion_main!(group);
