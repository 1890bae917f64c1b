// Builds one organization's establishments, customers and products from the sample data and a seeded
// stream: the fixed cast that every order of that organization draws on.
import type { Customer, Establishment, Money, Parent, StatusObject } from '../shared/api/schemas.js';
import { isoWeekday, zonedIsoTime } from '../shared/time/zonedTime.js';
import {
  ADULT_FIRST_NAMES,
  CLASSES,
  ESTABLISHMENTS,
  type EstablishmentTemplate,
  LAST_NAMES,
  PRODUCTS,
  type ProductTemplate,
  STUDENT_FIRST_NAMES,
} from './catalog.js';
import { money } from './money.js';
import type { SeededRandom } from './seededRandom.js';
import { formatTimestamp, microsFromMs } from './timestamps.js';

const DAY_MS = 86_400_000;
const ENABLED: StatusObject = { label: 'Enabled', value: 'enabled' };

/** A GET /products record. The spec gives no shape; this one carries the class prices and restrictions it mentions. */
export interface ProductRecord {
  uuid: string;
  sku: string;
  name: string;
  description: string | null;
  price: Money;
  is_menu: boolean;
  image: string;
  class_prices: Array<{ class: string; price: Money }>;
  class_restrictions: string[];
  status: StatusObject;
  created_at: string;
  updated_at: string;
}

export interface CatalogProduct {
  record: ProductRecord;
  template: ProductTemplate;
}

export interface OrganizationCatalog {
  establishments: Establishment[];
  customers: Customer[];
  products: CatalogProduct[];
}

/** A world's own hours for one establishment, over its template's; a field left out keeps the template's. */
export interface EstablishmentScheduleOverride {
  /** ISO weekdays, 1 = Monday … 7 = Sunday. */
  workingDays?: number[];
  /** HH:MM:SS in the organization's time zone. */
  orderClosingTime?: string;
}

export interface CatalogOptions {
  /** How many of the establishment templates, in their listed order; default all of them. */
  establishments?: number;
  /** Per establishment, in the templates' order: the world's working days and closing times. */
  schedules?: ReadonlyArray<EstablishmentScheduleOverride | undefined>;
}

/** `nowMs` anchors the records' creation dates in the past of the simulated present. */
export function buildOrganizationCatalog(
  rng: SeededRandom,
  nowMs: number,
  options: CatalogOptions = {},
): OrganizationCatalog {
  const establishments = options.establishments ?? ESTABLISHMENTS.length;
  if (!(Number.isInteger(establishments) && establishments >= 1 && establishments <= ESTABLISHMENTS.length)) {
    throw new RangeError(
      `establishments must be an integer from 1 to ${ESTABLISHMENTS.length}, got ${establishments}`,
    );
  }
  return {
    // A prefix of the templates takes the same draws as the full list, so the kept ones do not change.
    establishments: buildEstablishments(
      rng.fork('establishments'),
      nowMs,
      ESTABLISHMENTS.slice(0, establishments),
    ).map((establishment, index) => withSchedule(establishment, options.schedules?.[index])),
    customers: buildCustomers(rng.fork('customers')),
    products: buildProducts(rng.fork('products'), nowMs),
  };
}

function buildEstablishments(
  rng: SeededRandom,
  nowMs: number,
  templates: readonly EstablishmentTemplate[],
): Establishment[] {
  return templates.map((template) => {
    const createdMs = nowMs - rng.int(200, 700) * DAY_MS;
    return {
      uuid: rng.uuid(),
      name: template.name,
      allowed_order_pickup_time_type: template.pickupTimeType,
      allowed_order_pickup_time_interval: [...template.pickupTimes],
      working_days: [...template.workingDays],
      order_closing_time: template.orderClosingTime,
      menu_closing_time: template.menuClosingTime,
      daily_order_closure: template.dailyOrderClosure,
      status: { ...ENABLED },
      created_at: formatTimestamp(microsFromMs(createdMs)),
      updated_at: formatTimestamp(microsFromMs(createdMs + rng.int(0, 150) * DAY_MS)),
    };
  });
}

function withSchedule(
  establishment: Establishment,
  schedule: EstablishmentScheduleOverride | undefined,
): Establishment {
  if (!schedule) return establishment;
  const workingDays = schedule.workingDays ?? establishment.working_days;
  if (!workingDays.every((day) => Number.isInteger(day) && day >= 1 && day <= 7)) {
    throw new RangeError(`working days of ${establishment.name} must be 1 (Monday) to 7 (Sunday)`);
  }
  const closing = schedule.orderClosingTime ?? establishment.order_closing_time;
  if (!/^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/.test(closing)) {
    throw new RangeError(`closing time of ${establishment.name} must be HH:MM:SS, got "${closing}"`);
  }
  return {
    ...establishment,
    working_days: [...new Set(workingDays)].sort((a, b) => a - b),
    order_closing_time: closing,
  };
}

/**
 * The establishment closing its orders at `closesAtMs` (to the second, in `timeZone`) and working that
 * day: tests and the demo see a closing within seconds of starting, whatever the day and hour.
 */
export function closingAt(establishment: Establishment, closesAtMs: number, timeZone: string): Establishment {
  const local = zonedIsoTime(closesAtMs, timeZone);
  const weekday = isoWeekday(local.slice(0, 10));
  return {
    ...establishment,
    order_closing_time: local.slice(11, 19),
    // A menu that closed after the orders would be odd; the day's menu closes with them.
    menu_closing_time: establishment.menu_closing_time === null ? null : local.slice(11, 19),
    working_days: [...new Set([...establishment.working_days, weekday])].sort((a, b) => a - b),
  };
}

function buildCustomers(rng: SeededRandom): Customer[] {
  const customers: Customer[] = [];
  // Most students order through a parent's account, some families with two children.
  for (let family = 0; family < 12; family += 1) {
    const lastName = rng.pick(LAST_NAMES);
    const parent = buildParent(rng, lastName);
    const children = rng.chance(0.35) ? 2 : 1;
    for (let child = 0; child < children; child += 1) {
      customers.push({
        uuid: rng.uuid(),
        full_name: `${rng.pick(STUDENT_FIRST_NAMES)} ${lastName}`,
        class: rng.pick(CLASSES),
        parent: { ...parent, credit: { ...parent.credit } },
      });
    }
  }
  for (let student = 0; student < 3; student += 1) {
    customers.push({
      uuid: rng.uuid(),
      full_name: `${rng.pick(STUDENT_FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
      class: rng.pick(CLASSES),
      parent: null,
    });
  }
  for (let staff = 0; staff < 4; staff += 1) {
    customers.push({
      uuid: rng.uuid(),
      full_name: `${rng.pick(ADULT_FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`,
      class: null,
      parent: null,
    });
  }
  return customers;
}

function buildParent(rng: SeededRandom, lastName: string): Parent {
  const firstName = rng.pick(ADULT_FIRST_NAMES);
  return {
    uuid: rng.uuid(),
    full_name: `${firstName} ${lastName}`,
    email: rng.chance(0.85) ? `${asciiLower(firstName)}.${asciiLower(lastName)}@example.org` : null,
    phone: rng.chance(0.7) ? `+351 912 ${rng.int(100, 999)} ${rng.int(100, 999)}` : null,
    credit: money(rng.int(0, 60) * 50),
  };
}

function buildProducts(rng: SeededRandom, nowMs: number): CatalogProduct[] {
  const youngerClasses = CLASSES.filter((name) => name.startsWith('5') || name.startsWith('6'));
  return PRODUCTS.map((template) => {
    const createdMs = nowMs - rng.int(100, 400) * DAY_MS;
    const reduced = template.reducedPriceCents;
    const record: ProductRecord = {
      uuid: rng.uuid(),
      sku: template.sku,
      name: template.name,
      description: template.description,
      price: money(template.priceCents),
      is_menu: template.isMenu,
      image: template.image,
      class_prices:
        reduced === undefined ? [] : youngerClasses.map((name) => ({ class: name, price: money(reduced) })),
      class_restrictions: template.adultsOnly ? [...CLASSES] : [],
      status: { ...ENABLED },
      created_at: formatTimestamp(microsFromMs(createdMs)),
      updated_at: formatTimestamp(microsFromMs(createdMs + rng.int(0, 90) * DAY_MS)),
    };
    return { record, template };
  });
}

function asciiLower(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}
