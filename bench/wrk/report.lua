-- Prints a wrk run's figures as one JSON line for bench/harness/wrk-load.ts to read:
-- wrk's own summary has no 95th percentile and rounds its units for people.
done = function(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'WRK_REPORT {"durationUs":%d,"requests":%d,"bytes":%d,"non2xx":%d,"socketErrors":%d,' ..
    '"p50Us":%d,"p95Us":%d,"p99Us":%d,"maxUs":%d}\n',
    summary.duration, summary.requests, summary.bytes, errors.status,
    errors.connect + errors.read + errors.write + errors.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max))
end
