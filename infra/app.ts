// The CDK app: one stack, synthesized from the same config file the local runner reads (-c config=FILE).
import { App } from 'aws-cdk-lib';
import { MealOrderNotifierStack } from './mealOrderNotifierStack.js';

const app = new App();
new MealOrderNotifierStack(app, 'MealOrderNotifier', {
  description: 'meal-order-notifier: polls the Meal-Ordering Admin API and delivers order events',
});
app.synth();
