// The CDK app: one stack, synthesized from the same config file the local runner reads (-c config=FILE;
// the other settings are in deploymentSettings.ts), and checked with cdk-nag's AWS Solutions rules, so a
// synth that breaks one of them fails.
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { NotifierError } from '../shared/errors/notifierError.js';
import { deploymentSettings } from './deploymentSettings.js';
import { MealOrderNotifierStack } from './mealOrderNotifierStack.js';

const app = new App();
try {
  const { stackName, stackProps } = deploymentSettings(app.node);
  new MealOrderNotifierStack(app, stackName, stackProps);
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // Inside the try: checks that read the finished policies run at synth (rolePolicySize.ts).
  app.synth();
} catch (error) {
  // A mistake in the config or the context (ConfigError, DeploymentError, …): the message says everything,
  // a stack trace would bury it. Exit 1 whatever the class's own code: cdk reports any failure of the app
  // alike, and nothing restarts a synth.
  if (error instanceof NotifierError && error.userFacing) {
    console.error(`meal-order-notifier: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
