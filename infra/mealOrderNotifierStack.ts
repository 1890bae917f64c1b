// The notifier's one stack. Its resources (tables, functions, schedules, topics, queues, alarms) are
// composed here from one construct per concern as the detection and delivery layers land.
import { Stack } from 'aws-cdk-lib';

export class MealOrderNotifierStack extends Stack {}
