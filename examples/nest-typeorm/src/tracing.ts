/**
 * Tracing for the example: with `TRACE=console`, an OpenTelemetry SDK is registered that prints every finished span
 * (Svc's operation spans, `Book.findMany` and so on) to the console. Without it no SDK is registered, and Svc's spans
 * cost nothing. A production app registers its own SDK here instead (an OTLP exporter, the HTTP and database
 * instrumentations), before the app is created, so the driver's spans nest below Svc's.
 */
import { ConsoleSpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';

/** Registers the console SDK when `TRACE=console`; returns whether it did. */
export function startTracing(mode: string | undefined = process.env['TRACE']): boolean {
  if (mode !== 'console') return false;
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
  // Also registers the async-local context manager, so a span started in a handler stays active across its awaits.
  provider.register();
  return true;
}
