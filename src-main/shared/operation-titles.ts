// The words for an order operation whose outcome can be unknown (the contract's UnknownOperation):
// the core's alert titles and the renderer's alert log name an operation alike.

export const UNKNOWN_OPERATION_TITLES = {
  placeorder: 'Order placement',
  modifyorder: 'Order modification',
  cancelorder: 'Order cancellation',
  splitorder: 'Split order',
  basketorder: 'Basket order',
  cancelallorder: 'Cancel all',
  closeposition: 'Close all positions',
  placegttorder: 'GTT placement',
  modifygttorder: 'GTT modification',
  cancelgttorder: 'GTT cancellation',
} as const;
