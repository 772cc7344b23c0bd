export type AvailabilityStatus = 'in_stock' | 'backorder' | 'out_of_stock';

export interface Availability {
  status: AvailabilityStatus;
  purchasable: boolean;
}

/** The stock fields of a variant that decide its availability. */
export interface StockFields {
  readonly manageInventory: boolean;
  readonly inventoryQuantity: number;
  readonly allowBackorder: boolean;
}

/** The three answers, shared: filters ask for a variant's availability hundreds of thousands of times in a pass. */
const IN_STOCK: Readonly<Availability> = Object.freeze({ status: 'in_stock', purchasable: true });
const BACKORDER: Readonly<Availability> = Object.freeze({ status: 'backorder', purchasable: true });
const OUT_OF_STOCK: Readonly<Availability> = Object.freeze({ status: 'out_of_stock', purchasable: false });

/** docs/decisions.md, Availability: evaluated in that order on every read, and by the change log when it compares stock. */
export function availabilityOf(variant: StockFields): Readonly<Availability> {
  if (!variant.manageInventory || variant.inventoryQuantity > 0) return IN_STOCK;
  if (variant.allowBackorder) return BACKORDER;
  return OUT_OF_STOCK;
}
