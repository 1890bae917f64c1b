// The log formats the runner writes its records in (`--log-format`); logFormatOption.ts parses the option
// and builds the logger.

export const LOG_FORMATS = ['human', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
