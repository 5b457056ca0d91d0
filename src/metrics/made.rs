//! How a metric is made: named `chaikhana_{name}`, registered once in the process's registry, the
//! histograms with their buckets.

use prometheus::core::Collector;
use prometheus::{
    Error, Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge,
    IntGaugeVec, Opts, Registry,
};

/// Buckets of a wait for a partner, from half a second to ten minutes (the alert is at two).
pub(super) const PAIRING_BUCKETS: &[f64] = &[
    0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 90.0, 120.0, 300.0, 600.0,
];

/// Latency buckets from a tenth of a millisecond to two and a half seconds.
pub(super) const LATENCY_BUCKETS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
];

/// Buckets of a wait for the thinking pool, from a millisecond to ten seconds (the alert is at one).
pub(super) const WAIT_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// Registers `made` (once), a metric that must have been valid, and hands it back.
pub(super) fn registered<M: Collector + Clone + 'static>(
    registry: &Registry,
    made: Result<M, Error>,
) -> M {
    let metric = made.expect("a valid metric");
    registry
        .register(Box::new(metric.clone()))
        .expect("each metric registers once");
    metric
}

/// The options of the metric `chaikhana_{name}`.
pub(super) fn named(name: &str, help: &str) -> Opts {
    Opts::new(format!("chaikhana_{name}"), help)
}

/// The options of the latency histogram `chaikhana_{name}` (`LATENCY_BUCKETS`).
pub(super) fn latency(name: &str, help: &str) -> HistogramOpts {
    HistogramOpts::from(named(name, help)).buckets(LATENCY_BUCKETS.to_vec())
}

pub(super) fn gauge(registry: &Registry, name: &str, help: &str) -> IntGauge {
    registered(registry, IntGauge::with_opts(named(name, help)))
}

pub(super) fn gauge_vec(
    registry: &Registry,
    name: &str,
    help: &str,
    labels: &[&str],
) -> IntGaugeVec {
    registered(registry, IntGaugeVec::new(named(name, help), labels))
}

pub(super) fn counter(registry: &Registry, name: &str, help: &str) -> IntCounter {
    registered(registry, IntCounter::with_opts(named(name, help)))
}

pub(super) fn counter_vec(
    registry: &Registry,
    name: &str,
    help: &str,
    labels: &[&str],
) -> IntCounterVec {
    registered(registry, IntCounterVec::new(named(name, help), labels))
}

pub(super) fn histogram(registry: &Registry, name: &str, help: &str) -> Histogram {
    registered(registry, Histogram::with_opts(latency(name, help)))
}

pub(super) fn histogram_vec(
    registry: &Registry,
    name: &str,
    help: &str,
    labels: &[&str],
) -> HistogramVec {
    registered(registry, HistogramVec::new(latency(name, help), labels))
}
