// The CDK app: one stack, synthesized from the same config file the local runner reads (-c config=FILE;
// the other settings are in deploymentSettings.ts), and checked with cdk-nag's AWS Solutions rules, so a
// synth that breaks one of them fails.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ConfigError } from '../shared/config/errors.js';
import { DeploymentError } from './deploymentError.js';
import { deploymentSettings } from './deploymentSettings.js';
import { MealOrderNotifierStack } from './mealOrderNotifierStack.js';

const app = new App();
try {
  const { stackName, stackProps } = deploymentSettings(app.node);
  new MealOrderNotifierStack(app, stackName, stackProps);
} catch (error) {
  // A mistake in the config or the context: the message says everything, a stack trace would bury it.
  if (error instanceof ConfigError || error instanceof DeploymentError) {
    console.error(`meal-order-notifier: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
app.synth();
