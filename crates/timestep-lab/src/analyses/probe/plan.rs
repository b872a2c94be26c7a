//! How a probe spends its budget: a small share reading the clock, the rest sleeping, in rounds
//! that give every request about the same time, so a 0.1 ms sleep is measured more often than
//! a 5 ms one and a change of load during the run falls on every request alike.

use timestep_loop::NS_PER_MS;

/// The sleeps asked for, ns: 0.1, 0.5, 1, 2 and 5 ms.
pub const REQUESTS_NS: [u64; 5] = [
    NS_PER_MS / 10,
    NS_PER_MS / 2,
    NS_PER_MS,
    2 * NS_PER_MS,
    5 * NS_PER_MS,
];

/// What a sleep is planned to cost beyond its request, ns. A guess for planning only (Linux's
/// default timer slack is 50 µs, and waking takes more): the budget is kept by the clock,
/// which stops the run at its end however late the sleeps wake.
pub const PLANNED_OVERSHOOT_NS: u64 = 100_000;

/// The share of the budget spent reading the clock.
const CLOCK_SHARE: u64 = 50; // one fiftieth: 2 %

/// How a budget is spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// Reading the clock back to back, ns.
    pub clock_ns: u64,
    /// Pairs of sleeps (one native, one spin_sleep) of each of [`REQUESTS_NS`] in one round.
    pub per_round: [u64; REQUESTS_NS.len()],
    /// Rounds planned: as many as fit in the rest of the budget, and at least one.
    pub rounds: u64,
}

impl Plan {
    /// The plan for `budget_ns`. Each request gets about the time of one pair of the longest
    /// in a round. A budget too small for one round still runs one (about 51 ms as planned).
    pub fn new(budget_ns: u64) -> Plan {
        let clock_ns = budget_ns / CLOCK_SHARE;
        let longest = REQUESTS_NS[REQUESTS_NS.len() - 1] + PLANNED_OVERSHOOT_NS;
        let per_round = REQUESTS_NS.map(|r| {
            let cost = r + PLANNED_OVERSHOOT_NS;
            ((longest + cost / 2) / cost).max(1)
        });
        let mut plan = Plan {
            clock_ns,
            per_round,
            rounds: 1,
        };
        plan.rounds = ((budget_ns - clock_ns) / plan.round_ns()).max(1);
        plan
    }

    /// What one round is planned to cost, ns.
    pub fn round_ns(&self) -> u64 {
        let pairs = REQUESTS_NS.iter().zip(self.per_round);
        pairs.map(|(r, n)| 2 * n * (r + PLANNED_OVERSHOOT_NS)).sum()
    }

    /// What the whole probe is planned to cost, ns.
    pub fn planned_ns(&self) -> u64 {
        self.clock_ns + self.rounds * self.round_ns()
    }

    /// Sleeps of each kind planned for request `i` of [`REQUESTS_NS`].
    #[cfg(test)]
    pub fn samples(&self, i: usize) -> u64 {
        self.rounds * self.per_round[i]
    }

    /// The order of one round, as indices into [`REQUESTS_NS`]: one pair of each request in
    /// turn, again and again, each dropping out once it has had its pairs.
    pub fn round_order(&self) -> Vec<usize> {
        let most = self.per_round.iter().copied().max().unwrap_or(0);
        (0..most)
            .flat_map(|k| (0..REQUESTS_NS.len()).filter(move |&i| k < self.per_round[i]))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use timestep_loop::NS_PER_S;

    #[test]
    fn ten_seconds_give_each_request_about_a_fifth_of_the_sleeping_time() {
        let plan = Plan::new(10 * NS_PER_S);
        assert_eq!(plan.clock_ns, 200 * NS_PER_MS);
        // (5.1 ms / (request + 0.1 ms)), rounded: 25.5, 8.5, 4.6, 2.4, 1.
        assert_eq!(plan.per_round, [26, 9, 5, 2, 1]);
        // 2 × (26 × 0.2 + 9 × 0.6 + 5 × 1.1 + 2 × 2.1 + 1 × 5.1) ms = 50.8 ms a round.
        assert_eq!(plan.round_ns(), 50_800_000);
        assert_eq!(plan.rounds, 192); // 9.8 s in rounds of 50.8 ms
        assert_eq!(plan.samples(0), 26 * 192);
        assert_eq!(plan.samples(4), 192);
        assert_eq!(plan.planned_ns(), 200_000_000 + 192 * 50_800_000);
        // Each request's share of the sleeping time is within 20 % of a fifth.
        for (i, r) in REQUESTS_NS.iter().enumerate() {
            let share = 2 * plan.per_round[i] * (r + PLANNED_OVERSHOOT_NS);
            assert!((8_000_000..=12_200_000).contains(&share), "{r}: {share}");
        }
    }

    #[test]
    fn the_plan_stays_within_its_budget_and_a_tiny_budget_runs_one_round() {
        for ms in [60, 100, 500, 1_000, 2_500, 10_000, 600_000] {
            let budget = ms * NS_PER_MS;
            let plan = Plan::new(budget);
            assert!(plan.planned_ns() <= budget, "{ms} ms: {plan:?}");
            assert!(plan.planned_ns() + plan.round_ns() > budget, "{ms} ms");
        }
        let tiny = Plan::new(NS_PER_MS);
        assert_eq!((tiny.rounds, tiny.clock_ns), (1, 20_000));
        assert!((1..=5).all(|i| tiny.samples(i - 1) >= 1));
    }

    #[test]
    fn a_round_takes_the_requests_in_turn() {
        let plan = Plan::new(10 * NS_PER_S);
        let order = plan.round_order();
        assert_eq!(&order[..7], &[0, 1, 2, 3, 4, 0, 1]);
        for (i, &n) in plan.per_round.iter().enumerate() {
            assert_eq!(order.iter().filter(|&&j| j == i).count() as u64, n);
        }
        assert_eq!(order.len(), 26 + 9 + 5 + 2 + 1);
    }
}
