//! A variable-refresh panel (`--vrr MIN..MAX`), with low-framerate compensation as AMD's
//! driver does it.
//!
//! The panel, after the kernel's contract (Linux `drivers/gpu/drm/drm_connector.c`, "Variable
//! refresh properties"): a refresh cycle stretches its front porch until a flip arrives or a
//! timeout. A flip ready at `t` in the cycle that began at `s` is scanned out at
//! `max(t, s + shortest)`; at `s + longest` with no flip the old frame is scanned again. A
//! free cycle lasts 1/MAX to 1/MIN.
//!
//! The driver, after `drivers/gpu/drm/amd/display/modules/freesync/freesync.c` (Linux 6.11):
//! at every flip it looks at the interval since the previous flip (`last_render_time_in_us`,
//! which is flip to flip) and decides how the frame just flipped is shown.
//! - With LFC (`btr.btr_enabled`: MAX ≥ 2 × MIN, or `--lfc RATIO`), `apply_below_the_range`:
//!   once frames are slow (hysteresis around `max_render = 1/MIN − margin`, margin =
//!   min(1/MIN − 2/MAX, 2.5 ms)), the frame is scanned k times, k = floor or ceil of
//!   interval / midpoint (the midpoint of the two durations), whichever puts interval / k
//!   nearer it, keeping the previous k unless the other is 2 ms better; the first k − 1 cycles
//!   are pinned at interval / k (`mod_freesync_handle_v_update` counts them down), the last is
//!   free again.
//! - Without, `apply_fixed_refresh`: more than 5 flips in a row slower than 1/MIN pin the panel
//!   at MAX until more than 10 in a row are faster than MIN + 1 Hz.
//!
//! The driver's arithmetic is whole microseconds and micro-hertz, as here. Not modelled: the
//! hardware's own minimum refresh, a nominal rate below MAX, the static-screen ramp and the
//! flip-interval workaround.

use std::fmt;

/// `BTR_MAX_MARGIN`: the most the below-the-range hysteresis margin can be, µs.
const BTR_MAX_MARGIN_US: u64 = 2_500;
/// `BTR_DRIFT_MARGIN`: the other multiplier must be this much nearer the midpoint, µs.
const BTR_DRIFT_MARGIN_US: u64 = 2_000;
/// `FIXED_REFRESH_ENTER_FRAME_COUNT` / `FIXED_REFRESH_EXIT_FRAME_COUNT`.
const FIXED_ENTER_FRAMES: u32 = 5;
const FIXED_EXIT_FRAMES: u32 = 10;
/// `FIXED_REFRESH_EXIT_MARGIN_IN_HZ`, in mHz.
const FIXED_EXIT_MARGIN_MHZ: u64 = 1_000;
/// `MIN_REFRESH_RANGE`: a narrower range is not run variable at all, Hz.
pub const MIN_RANGE_HZ: f64 = 10.0;
/// AMD's rule for when LFC is possible: MAX ≥ this × MIN.
pub const LFC_RATIO: f64 = 2.0;

/// Low-framerate compensation (`--lfc`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Lfc {
    /// Possible when MAX ≥ RATIO × MIN (AMD's driver: 2; launch-era articles: 2.5).
    Ratio(f64),
    /// No LFC, whatever the range.
    Off,
}

impl Default for Lfc {
    fn default() -> Lfc {
        Lfc::Ratio(LFC_RATIO)
    }
}

impl fmt::Display for Lfc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Lfc::Ratio(r) => write!(f, "{r}"),
            Lfc::Off => f.write_str("off"),
        }
    }
}

/// A variable-refresh range and its LFC rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Vrr {
    /// The slowest refresh rate the panel holds, Hz.
    pub min_hz: f64,
    /// The fastest refresh rate the panel holds, Hz (the mode's).
    pub max_hz: f64,
    /// When low-framerate compensation runs.
    pub lfc: Lfc,
}

impl Vrr {
    /// Whether LFC runs on this range (`btr_enabled`, compared in µHz as the driver does).
    pub fn lfc_on(&self) -> bool {
        match self.lfc {
            Lfc::Ratio(r) => uhz(self.max_hz) as f64 >= r * uhz(self.min_hz) as f64,
            Lfc::Off => false,
        }
    }
}

impl fmt::Display for Vrr {
    /// `48..144 Hz VRR with LFC` or `40..60 Hz VRR without LFC`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lfc = if self.lfc_on() { "with" } else { "without" };
        write!(f, "{}..{} Hz VRR {lfc} LFC", self.min_hz, self.max_hz)
    }
}

fn uhz(hz: f64) -> u64 {
    (hz * 1e6).round() as u64
}

/// `calc_duration_in_us_from_refresh_in_uhz`.
fn duration_us(refresh_uhz: u64) -> u64 {
    1_000_000_000_000 / refresh_uhz.max(1)
}

/// A scanout: when, and how long the refresh cycle it ended lasted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scan {
    /// When the scanout starts, ns of simulated wall time.
    pub at_ns: u64,
    /// How long the refresh cycle it ended lasted, ns.
    pub cycle_ns: u64,
}

/// A run of scanouts `cycle_ns` apart: `first`, then `count − 1` more, each one cycle later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScanRun {
    /// The run's first scanout.
    pub first: Scan,
    /// How many scanouts the run holds, the first included.
    pub count: u64,
}

/// Scanouts in order, each run of equal cycles held as one entry: a wait of any length is a
/// few entries, never one per cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scans {
    runs: Vec<ScanRun>,
}

impl Scans {
    /// Appends `count` scanouts from `first` on, one cycle apart, joining the last run if
    /// they continue it.
    fn push(&mut self, first: Scan, count: u64) {
        if let Some(last) = self.runs.last_mut()
            && last.first.cycle_ns == first.cycle_ns
            && last.first.at_ns + last.count * first.cycle_ns == first.at_ns
        {
            last.count += count;
            return;
        }
        self.runs.push(ScanRun { first, count });
    }

    /// The runs, in order.
    pub fn runs(&self) -> &[ScanRun] {
        &self.runs
    }

    /// How many scanouts.
    pub fn len(&self) -> u64 {
        self.runs.iter().map(|r| r.count).sum()
    }

    /// Whether there are no scanouts.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// The scanouts one by one (as many as [`Scans::len`]: for tests and short waits).
    pub fn iter(&self) -> impl Iterator<Item = Scan> + '_ {
        self.runs.iter().flat_map(|r| {
            (0..r.count).map(move |i| Scan {
                at_ns: r.first.at_ns + i * r.first.cycle_ns,
                cycle_ns: r.first.cycle_ns,
            })
        })
    }

    /// The shortest and longest cycle, ns (0 with no scanouts).
    pub fn cycle_range_ns(&self) -> (u64, u64) {
        let cycles = self.runs.iter().map(|r| r.first.cycle_ns);
        (cycles.clone().min().unwrap_or(0), cycles.max().unwrap_or(0))
    }

    /// Every cycle's length added up, ns.
    pub fn total_ns(&self) -> u64 {
        self.runs
            .iter()
            .map(|r| r.first.cycle_ns.saturating_mul(r.count))
            .fold(0, u64::saturating_add)
    }
}

impl<const N: usize> PartialEq<[Scan; N]> for Scans {
    fn eq(&self, other: &[Scan; N]) -> bool {
        self.iter().eq(other.iter().copied())
    }
}

/// A flip scanned out, and the scanouts of the old frame before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flip {
    /// When the flipped frame's scanout starts, ns of simulated wall time.
    pub shown_ns: u64,
    /// Every scanout up to and including the flip's own, in order.
    pub scans: Scans,
}

/// The panel and its driver's state.
#[derive(Clone, Debug)]
pub struct VrrPanel {
    min_d_us: u64,
    max_d_us: u64,
    lfc: bool,
    margin_us: u64,
    mid_us: u64,
    /// The current cycle: when it began, its shortest and longest length, ns.
    cycle_start_ns: u64,
    cycle: (u64, u64),
    /// Cycles still pinned at `pinned_ns` after the current one (LFC's insertion); while
    /// any are left, the current cycle is pinned too.
    pinned_left: u64,
    pinned_ns: u64,
    last_flip_ns: Option<u64>,
    btr_active: bool,
    frames_to_insert: u64,
    fixed_active: bool,
    fixed_counter: u32,
}

impl VrrPanel {
    /// A panel of `vrr`, on since `start_ns`.
    pub fn new(vrr: Vrr, start_ns: u64) -> VrrPanel {
        let min_d_us = duration_us(uhz(vrr.max_hz));
        let max_d_us = duration_us(uhz(vrr.min_hz));
        let lfc = vrr.lfc_on();
        let margin_us = if lfc {
            max_d_us.saturating_sub(2 * min_d_us).min(BTR_MAX_MARGIN_US)
        } else {
            0
        };
        let mut panel = VrrPanel {
            min_d_us,
            max_d_us,
            lfc,
            margin_us,
            mid_us: (min_d_us + max_d_us) / 2,
            cycle_start_ns: start_ns,
            cycle: (0, 0),
            pinned_left: 0,
            pinned_ns: 0,
            last_flip_ns: None,
            btr_active: false,
            frames_to_insert: 0,
            fixed_active: false,
            fixed_counter: 0,
        };
        // Before the first flip the panel shows whatever it showed: that flip is taken at once.
        panel.cycle = (0, u64::MAX);
        panel
    }

    /// The shortest refresh cycle (1/MAX), ns.
    pub fn shortest_ns(&self) -> u64 {
        self.min_d_us * 1_000
    }

    /// A cycle of the full range, or pinned at MAX while fixed refresh is on.
    fn free_cycle(&self) -> (u64, u64) {
        let (min, max) = (self.min_d_us * 1_000, self.max_d_us * 1_000);
        if self.fixed_active {
            (min, min)
        } else {
            (min, max)
        }
    }

    /// The cycle after the current one.
    fn next_cycle(&mut self) -> (u64, u64) {
        if self.pinned_left > 0 {
            self.pinned_left -= 1;
            (self.pinned_ns, self.pinned_ns)
        } else {
            self.free_cycle()
        }
    }

    /// A frame ready to flip at `ready_ns`: the old frame's repeated scanouts until the panel
    /// can take it, then its own. The driver then decides how this frame is scanned.
    pub fn flip(&mut self, ready_ns: u64) -> Flip {
        let mut scans = Scans::default();
        while ready_ns > self.cycle_start_ns.saturating_add(self.cycle.1) {
            self.time_out(ready_ns, &mut scans);
        }
        let shown_ns = ready_ns.max(self.cycle_start_ns + self.cycle.0);
        scans.push(self.scan(shown_ns), 1);
        // The driver decides how this frame is scanned; its first cycle is the one just begun.
        match self.last_flip_ns.replace(ready_ns) {
            Some(last) => self.decide(ready_ns.saturating_sub(last) / 1_000),
            None => self.pinned_left = 0,
        }
        self.cycle = self.next_cycle();
        Flip { shown_ns, scans }
    }

    /// The current cycle times out before `ready_ns`, and so do the alike cycles after it
    /// that end before then: the old frame is scanned again at the end of each, all in one
    /// step (as many as fit, `(ready − start − 1) / cycle`), however long the wait.
    fn time_out(&mut self, ready_ns: u64, scans: &mut Scans) {
        let cycle_ns = self.cycle.1;
        let fit = (ready_ns - self.cycle_start_ns - 1) / cycle_ns;
        let n = fit.min(self.alike_cycles());
        let first = Scan {
            at_ns: self.cycle_start_ns + cycle_ns,
            cycle_ns,
        };
        scans.push(first, n);
        self.cycle_start_ns += n * cycle_ns;
        // The n − 1 cycles begun in between were the pinned ones, or free ones that keep none.
        self.pinned_left = self.pinned_left.saturating_sub(n - 1);
        self.cycle = self.next_cycle();
    }

    /// How many cycles from the current one on are alike: it and the pinned ones left, or
    /// every one while the panel runs free (the driver changes it only at a flip).
    fn alike_cycles(&self) -> u64 {
        if self.pinned_left > 0 {
            self.pinned_left + 1
        } else if self.cycle == self.free_cycle() {
            u64::MAX
        } else {
            1
        }
    }

    /// A scanout at `at_ns`, where a cycle ends and the next begins.
    fn scan(&mut self, at_ns: u64) -> Scan {
        let scan = Scan {
            at_ns,
            cycle_ns: at_ns - self.cycle_start_ns,
        };
        self.cycle_start_ns = at_ns;
        scan
    }

    /// The driver's decision at a flip `l` µs after the previous one.
    fn decide(&mut self, l: u64) {
        if self.lfc {
            self.below_the_range(l);
        } else {
            self.fixed_refresh(l);
        }
    }

    /// `apply_below_the_range`.
    fn below_the_range(&mut self, l: u64) {
        let m = self.margin_us;
        let max_render = self.max_d_us - m;
        if l + m / 2 < max_render {
            self.btr_active = false;
        } else if l > max_render + m / 2 {
            self.btr_active = true;
        }
        if !self.btr_active {
            self.frames_to_insert = 0;
            self.pinned_left = 0;
            return;
        }
        let k = self.multiplier(l);
        let inserted_us = l.checked_div(k).unwrap_or(0).max(self.min_d_us);
        self.frames_to_insert = k;
        self.pinned_left = k.saturating_sub(1);
        self.pinned_ns = inserted_us * 1_000;
    }

    /// How many times a frame `l` µs long is scanned (steps 3 to 5 of `apply_below_the_range`).
    fn multiplier(&self, l: u64) -> u64 {
        let (mid, min_d) = (self.mid_us, self.min_d_us);
        let ceil = l.div_ceil(mid);
        let floor = l / mid;
        let off = |k: u64| {
            l.checked_div(k)
                .map_or(u64::from(u32::MAX), |d| mid.abs_diff(d))
        };
        let (d_ceil, d_floor) = (off(ceil), off(floor));
        let mut k = if ceil > 0 && l / ceil < min_d {
            floor
        } else if floor < 2 || d_ceil < d_floor {
            ceil
        } else {
            floor
        };
        let prev = self.frames_to_insert;
        let max_render = self.max_d_us - self.margin_us;
        if prev != 0
            && d_ceil.abs_diff(d_floor) < BTR_DRIFT_MARGIN_US
            && min_d < l / prev
            && l / prev < max_render
        {
            k = prev;
        }
        if k > 1 && l / k < min_d {
            k -= 1;
        }
        k
    }

    /// `apply_fixed_refresh`.
    fn fixed_refresh(&mut self, l: u64) {
        let exit_mhz = 1_000_000_000 / self.max_d_us + FIXED_EXIT_MARGIN_MHZ;
        let exit_us = 1_000_000_000 / exit_mhz;
        if l < exit_us {
            if self.fixed_active {
                self.fixed_counter += 1;
                if self.fixed_counter > FIXED_EXIT_FRAMES {
                    self.fixed_active = false;
                    self.fixed_counter = 0;
                }
            } else {
                self.fixed_counter = 0;
            }
        } else if l > self.max_d_us {
            if self.fixed_active {
                self.fixed_counter = 0;
            } else {
                self.fixed_counter += 1;
                if self.fixed_counter > FIXED_ENTER_FRAMES {
                    self.fixed_active = true;
                    self.fixed_counter = 0;
                }
            }
        }
    }

    /// Whether LFC is inserting scans now, and how many of the last frame.
    pub fn inserting(&self) -> Option<u64> {
        self.btr_active.then_some(self.frames_to_insert)
    }

    /// Whether fixed refresh pins the panel at MAX now.
    pub fn pinned_at_max(&self) -> bool {
        self.fixed_active
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;
    const US: u64 = 1_000;

    fn panel(min_hz: f64, max_hz: f64, lfc: Lfc) -> VrrPanel {
        VrrPanel::new(
            Vrr {
                min_hz,
                max_hz,
                lfc,
            },
            0,
        )
    }

    /// A flip at 0, then one after each of `intervals`.
    fn flips(p: &mut VrrPanel, intervals: &[u64]) -> Vec<Flip> {
        let mut t = 0;
        let mut out = vec![p.flip(0)];
        for &d in intervals {
            t += d;
            out.push(p.flip(t));
        }
        out
    }

    /// The reference: `flip` as first written, one refresh cycle after another.
    fn flip_per_cycle(p: &mut VrrPanel, ready_ns: u64) -> (u64, Vec<Scan>) {
        let mut scans = Vec::new();
        while ready_ns > p.cycle_start_ns.saturating_add(p.cycle.1) {
            scans.push(p.scan(p.cycle_start_ns + p.cycle.1));
            p.cycle = p.next_cycle();
        }
        let shown_ns = ready_ns.max(p.cycle_start_ns + p.cycle.0);
        scans.push(p.scan(shown_ns));
        match p.last_flip_ns.replace(ready_ns) {
            Some(last) => p.decide(ready_ns.saturating_sub(last) / 1_000),
            None => p.pinned_left = 0,
        }
        p.cycle = p.next_cycle();
        (shown_ns, scans)
    }

    /// Flips after each of `intervals` on two like panels, one cycle by cycle and one in
    /// runs: every scanout and every state alike. Returns the runs' flips.
    fn flips_match_per_cycle(min_hz: f64, max_hz: f64, intervals: &[u64]) -> Vec<Flip> {
        let vrr = Vrr {
            min_hz,
            max_hz,
            lfc: Lfc::default(),
        };
        let (mut runs, mut cycles) = (VrrPanel::new(vrr, 0), VrrPanel::new(vrr, 0));
        let mut t = 0;
        let mut out = Vec::new();
        for (i, d) in [0].iter().chain(intervals).enumerate() {
            t += d;
            let f = runs.flip(t);
            let (shown_ns, scans) = flip_per_cycle(&mut cycles, t);
            assert_eq!(
                (f.shown_ns, f.scans.len()),
                (shown_ns, scans.len() as u64),
                "flip {i}"
            );
            assert!(f.scans.iter().eq(scans.iter().copied()), "flip {i}");
            assert_eq!(format!("{runs:?}"), format!("{cycles:?}"), "after flip {i}");
            out.push(f);
        }
        out
    }

    #[test]
    fn long_waits_scan_as_the_per_cycle_panel_does_in_a_few_entries() {
        const S: u64 = 1_000 * MS;
        // LFC on: 25 ms frames pin one 12.5 ms cycle; a 10 s stall then runs free at 1/48 s.
        // The flip after it pins 719 cycles of 10 s / 720; the 20 s wait after the next flip
        // runs through them and on free.
        let lfc = [
            10 * MS,
            25 * MS,
            25 * MS,
            10 * S,
            10 * S,
            20 * S,
            16 * MS,
            3 * MS,
            40 * MS,
        ];
        let f = flips_match_per_cycle(48.0, 144.0, &lfc);
        let cycles = |f: &Flip| -> Vec<(u64, u64)> {
            let runs = f.scans.runs().iter();
            runs.map(|r| (r.first.cycle_ns / US, r.count)).collect()
        };
        assert_eq!(cycles(&f[4]), [(12_500, 1), (20_833, 479), (8_493, 1)]);
        assert_eq!(cycles(&f[5]), [(13_888, 719), (14_528, 1)]);
        assert_eq!(cycles(&f[6]), [(13_888, 719), (20_833, 480), (14_688, 1)]);
        // LFC off: eight 30 ms frames pin the panel at 60 Hz; a 10 s stall runs at 60 Hz.
        let mut fixed = vec![30 * MS; 8];
        fixed.extend([10 * S, 30 * MS, 10 * MS, 10 * S]);
        let f = flips_match_per_cycle(40.0, 60.0, &fixed);
        // Pinned, the flip waits for the 60 Hz grid: its own scan continues the run.
        assert_eq!(f[9].scans.runs().len(), 1, "{:?}", f[9].scans);
        assert!(f[9].scans.len() > 590);
    }

    #[test]
    fn a_year_long_stall_is_held_in_a_few_entries() {
        const YEAR: u64 = 365 * 86_400 * 1_000 * MS;
        let mut p = panel(48.0, 144.0, Lfc::default());
        let f = flips(&mut p, &[10 * MS, 25 * MS, 25 * MS, YEAR, 16 * MS, YEAR]);
        for (i, gap) in [(4, 25 * MS + YEAR), (6, 16 * MS + YEAR)] {
            let scans = &f[i].scans;
            assert!(scans.runs().len() <= 3, "{scans:?}");
            // About one scan per 1/48 s, the cycles covering the wait from flip to flip.
            assert!(scans.len() > YEAR / (20_834 * US), "{}", scans.len());
            assert_eq!(scans.total_ns(), f[i].shown_ns - f[i - 1].shown_ns, "{gap}");
        }
    }

    #[test]
    fn a_48_to_144_panel_derives_the_drivers_figures() {
        // freesync.c's build_vrr_params for 48..144 Hz: durations 6944 and 20833 µs, margin
        // min(20833 − 13888, 2500), midpoint 13888.
        let p = panel(48.0, 144.0, Lfc::default());
        assert!(p.lfc);
        assert_eq!(
            (p.min_d_us, p.max_d_us, p.margin_us, p.mid_us),
            (6_944, 20_833, 2_500, 13_888)
        );
        assert!(!panel(48.0, 95.0, Lfc::default()).lfc, "95 < 2 × 48");
        assert!(panel(48.0, 96.0, Lfc::default()).lfc, "equality is enough");
        assert!(!panel(48.0, 110.0, Lfc::Ratio(2.5)).lfc);
        assert!(!panel(48.0, 144.0, Lfc::Off).lfc);
    }

    #[test]
    fn frames_inside_the_range_are_scanned_when_ready_and_no_sooner_than_1_over_max() {
        let mut p = panel(48.0, 144.0, Lfc::default());
        let f = flips(&mut p, &[10 * MS, 12 * MS, 3 * MS]);
        let shown: Vec<u64> = f.iter().map(|f| f.shown_ns).collect();
        // 3 ms after the last is sooner than 1/144 s: it waits for 6.944 ms.
        assert_eq!(shown, [0, 10 * MS, 22 * MS, 22 * MS + 6_944 * US]);
        assert!(f.iter().all(|f| f.scans.len() == 1));
    }

    #[test]
    fn the_multiplier_follows_the_drivers_worked_examples() {
        let p = panel(48.0, 144.0, Lfc::default());
        // L = 25 ms: ceil 2 (12.5 ms), floor 1 → rule (b), k 2. 30 ms: floor 2 (15 ms) is
        // nearer the midpoint than ceil 3 (10 ms). 40 ms: ceil 3 (13.3 ms) is nearer.
        assert_eq!(p.multiplier(25_000), 2);
        assert_eq!(p.multiplier(30_000), 2);
        assert_eq!(p.multiplier(40_000), 3);
    }

    #[test]
    fn the_previous_multiplier_sticks_unless_the_other_is_2_ms_nearer() {
        // 34 ms: ceil 3 (11.333 ms, 2.555 off) beats floor 2 (17 ms, 3.112 off) by 0.557 ms,
        // under the drift margin: after a k of 2 it stays 2, after 3 it stays 3.
        let mut p = panel(48.0, 144.0, Lfc::default());
        p.btr_active = true;
        p.frames_to_insert = 2;
        assert_eq!(p.multiplier(34_000), 2);
        p.frames_to_insert = 3;
        assert_eq!(p.multiplier(34_000), 3);
        p.frames_to_insert = 0;
        assert_eq!(p.multiplier(34_000), 3);
    }

    #[test]
    fn below_the_range_is_entered_past_19_6_ms_and_left_below_17_1_ms() {
        // Exit below max_render − margin/2 = 17083 µs; enter above max_render + margin/2 =
        // 19583 µs; in between the state stays.
        let mut p = panel(48.0, 144.0, Lfc::default());
        p.decide(19_000);
        assert_eq!(p.inserting(), None, "19 ms does not enter");
        p.decide(20_000);
        assert_eq!((p.inserting(), p.pinned_ns), (Some(2), 10_000 * US));
        p.decide(18_000);
        assert_eq!(
            (p.inserting(), p.pinned_ns),
            (Some(2), 9_000 * US),
            "18 ms stays"
        );
        p.decide(16_000);
        assert_eq!(p.inserting(), None, "16 ms leaves");
    }

    #[test]
    fn a_slow_frame_is_scanned_k_times_and_the_first_long_one_still_hitches() {
        let mut p = panel(48.0, 144.0, Lfc::default());
        let f = flips(&mut p, &[10 * MS, 25 * MS, 25 * MS, 25 * MS]);
        // From fast frames, the first 25 ms frame meets the plain range: the panel times out
        // at 10 + 20.833 ms and repeats; the flip at 35 ms waits for 1/144 s after that.
        assert_eq!(f[2].shown_ns, 10 * MS + 20_833 * US + 6_944 * US);
        assert_eq!(f[2].scans.len(), 2);
        // That flip (25 ms after the last) turned LFC on with k = 2: each frame from then on
        // is scanned twice, 12.5 ms apart, and shown when ready.
        assert_eq!(f[3].shown_ns, 60 * MS);
        assert_eq!(f[4].shown_ns, 85 * MS);
        assert_eq!(
            f[4].scans,
            [
                Scan {
                    at_ns: 72_500 * US,
                    cycle_ns: 12_500 * US
                },
                Scan {
                    at_ns: 85 * MS,
                    cycle_ns: 12_500 * US
                },
            ]
        );
    }

    #[test]
    fn without_lfc_six_slow_frames_pin_the_panel_at_max_and_eleven_fast_ones_free_it() {
        // 40..60 Hz cannot have LFC (60 < 80). 30 ms flips: the panel times out at 25 ms and
        // repeats, so the flip at 30 ms waits to 41.67 ms and every other frame is late.
        let mut p = panel(40.0, 60.0, Lfc::default());
        let f = flips(&mut p, &[30 * MS; 8]);
        let shown: Vec<u64> = f.iter().map(|f| f.shown_ns).collect();
        assert_eq!(&shown[..4], [0, 41_666 * US, 60 * MS, 101_666 * US]);
        // The 6th long interval (the flip at 180 ms) pins the panel at 60 Hz.
        assert!(p.pinned_at_max());
        let mut q = panel(40.0, 60.0, Lfc::default());
        flips(&mut q, &[30 * MS; 5]);
        assert!(!q.pinned_at_max(), "5 are not enough");
        q.flip(180 * MS);
        assert!(q.pinned_at_max());
        // Pinned, the panel is a 60 Hz display: a flip waits for the next 16.666 ms cycle.
        let f = q.flip(210 * MS);
        assert!(f.scans.iter().all(|s| s.cycle_ns == 16_666 * US), "{f:?}");
        for _ in 0..10 {
            q.decide(20_000);
        }
        assert!(q.pinned_at_max(), "10 fast frames are not enough");
        q.decide(20_000);
        assert!(!q.pinned_at_max());
    }
}
