// Intl.DateTimeFormat instances kept per time zone: building one costs ~50 µs, far more than using one,
// and a process formats many instants in the same few zones.

/** A getter of `make(timeZone)`, built on a zone's first use. */
export function formatterPerZone(
  make: (timeZone: string) => Intl.DateTimeFormat,
): (timeZone: string) => Intl.DateTimeFormat {
  const formatters = new Map<string, Intl.DateTimeFormat>();
  return (timeZone) => {
    let formatter = formatters.get(timeZone);
    if (!formatter) {
      formatter = make(timeZone);
      formatters.set(timeZone, formatter);
    }
    return formatter;
  };
}
