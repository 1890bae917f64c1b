// A CloudWatch metric alarm evaluated over datapoints, as CloudWatch would: periods aligned to the epoch,
// the statistic of each, the last `evaluationPeriods` periods judged at each period's end, `datapointsToAlarm`
// of them breaching for ALARM, and a period without data treated as the alarm's TreatMissingData says. Read
// from the synthesized template (AWS::CloudWatch::Alarm properties), so a test judges the alarm deployed.

export type AlarmState = 'OK' | 'ALARM' | 'INSUFFICIENT_DATA';

export interface AlarmDefinition {
  metricName: string;
  dimensions: Record<string, string>;
  statistic: 'Maximum' | 'Minimum' | 'Sum' | 'Average' | 'SampleCount';
  periodMs: number;
  evaluationPeriods: number;
  datapointsToAlarm: number;
  threshold: number;
  comparisonOperator: string;
  treatMissingData: 'breaching' | 'notBreaching' | 'ignore' | 'missing';
}

/** The alarm as the template declares it (a single-metric alarm). */
export function alarmDefinitionOf(properties: Record<string, unknown>): AlarmDefinition {
  const evaluationPeriods = Number(properties.EvaluationPeriods);
  return {
    metricName: String(properties.MetricName),
    dimensions: Object.fromEntries(
      (properties.Dimensions as { Name: string; Value: string }[]).map(({ Name, Value }) => [Name, Value]),
    ),
    statistic: properties.Statistic as AlarmDefinition['statistic'],
    periodMs: Number(properties.Period) * 1000,
    evaluationPeriods,
    datapointsToAlarm: Number(properties.DatapointsToAlarm ?? evaluationPeriods),
    threshold: Number(properties.Threshold),
    comparisonOperator: String(properties.ComparisonOperator),
    treatMissingData: (properties.TreatMissingData ?? 'missing') as AlarmDefinition['treatMissingData'],
  };
}

export interface Datapoint {
  at: number;
  value: number;
}

export interface AlarmTransition {
  at: number;
  state: AlarmState;
}

function statistic(values: readonly number[], name: AlarmDefinition['statistic']): number {
  switch (name) {
    case 'Maximum':
      return Math.max(...values);
    case 'Minimum':
      return Math.min(...values);
    case 'Sum':
      return values.reduce((a, b) => a + b, 0);
    case 'Average':
      return values.reduce((a, b) => a + b, 0) / values.length;
    case 'SampleCount':
      return values.length;
  }
}

function breaches(value: number, alarm: AlarmDefinition): boolean {
  switch (alarm.comparisonOperator) {
    case 'GreaterThanOrEqualToThreshold':
      return value >= alarm.threshold;
    case 'GreaterThanThreshold':
      return value > alarm.threshold;
    case 'LessThanThreshold':
      return value < alarm.threshold;
    case 'LessThanOrEqualToThreshold':
      return value <= alarm.threshold;
    default:
      throw new Error(`comparison ${alarm.comparisonOperator} not modelled`);
  }
}

/**
 * The alarm's state changes from `from` to `to` (each a notification: the stack's alarms notify on ALARM and
 * on OK). Evaluated at the end of every period; it starts in INSUFFICIENT_DATA, as a new alarm does.
 */
export function evaluateAlarm(
  alarm: AlarmDefinition,
  datapoints: readonly Datapoint[],
  window: { from: number; to: number },
): AlarmTransition[] {
  const period = alarm.periodMs;
  const buckets = new Map<number, number[]>();
  for (const { at, value } of datapoints) {
    const bucket = Math.floor(at / period);
    const values = buckets.get(bucket) ?? [];
    values.push(value);
    buckets.set(bucket, values);
  }
  const transitions: AlarmTransition[] = [];
  let state: AlarmState = 'INSUFFICIENT_DATA';
  for (let end = Math.ceil(window.from / period) * period + period; end <= window.to; end += period) {
    const last = end / period - 1;
    let breaching = 0;
    let present = 0;
    for (let bucket = last - alarm.evaluationPeriods + 1; bucket <= last; bucket += 1) {
      const values = buckets.get(bucket);
      if (values === undefined) {
        if (alarm.treatMissingData === 'breaching') breaching += 1;
        continue;
      }
      present += 1;
      if (breaches(statistic(values, alarm.statistic), alarm)) breaching += 1;
    }
    let next: AlarmState;
    if (breaching >= alarm.datapointsToAlarm) next = 'ALARM';
    else if (
      present > 0 ||
      alarm.treatMissingData === 'notBreaching' ||
      alarm.treatMissingData === 'breaching'
    )
      next = 'OK';
    else next = alarm.treatMissingData === 'ignore' ? state : 'INSUFFICIENT_DATA';
    if (next !== state) {
      transitions.push({ at: end, state: next });
      state = next;
    }
  }
  return transitions;
}
