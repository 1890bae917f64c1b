// The product's name and version, for the User-Agent and the CLI's --version.
import packageJson from '../package.json' with { type: 'json' };

export const PRODUCT_NAME = 'meal-order-notifier';
export const PRODUCT_VERSION: string = packageJson.version;
export const USER_AGENT = `${PRODUCT_NAME}/${PRODUCT_VERSION} (node ${process.versions.node})`;
