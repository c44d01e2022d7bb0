/** A shop's orders: a caller sees, writes and hears of its own shop's orders only. */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import { callerOf } from './caller';
import { Order } from './order.entity';

@Svc(Order, {
  // Who may call: anyone whose token names a shop. This replaces the module's policy for orders.
  policy: ({ context }) => callerOf(context)?.tenant !== undefined,
  // Which rows: the caller's shop's, on every read, write and event. Another shop's order is a 404.
  filter: { apply: ({ context }) => ({ tenant: { eq: callerOf(context)?.tenant ?? '' } }) },
  // What a new order takes from the caller, whatever the body says.
  set: { create: ({ context }) => ({ tenant: callerOf(context)?.tenant }) },
  // What a body may write: not the tenant.
  schema: { input: { create: ['title', 'quantity'], update: ['title', 'quantity'] } },
  // Its writes are published on GET /orders/events.
  realtime: {},
})
@Controller('orders')
export class OrdersController {}
