/// <reference types="aws-sdk-client-mock-vitest/extend" />
// Shared test setup: aws-sdk-client-mock matchers (toHaveReceivedCommandWith, …) on every test's expect.
import { allCustomMatcher } from 'aws-sdk-client-mock-vitest';
import { expect } from 'vitest';

expect.extend(allCustomMatcher);
