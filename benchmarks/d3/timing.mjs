// What the comparisons in this directory time with: the process's CPU time, and a median.

/// CPU milliseconds used by the process so far (its garbage collector's threads included).
export const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e3;
};

/// The median of `times` (the upper one of an even count).
export function median(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}
