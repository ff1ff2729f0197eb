import { Module, OnApplicationShutdown } from '@nestjs/common';
import { OcrLabelReader } from './ocr-label-reader';

class OcrLifetime implements OnApplicationShutdown {
  constructor(private readonly ocr: OcrLabelReader) {}
  async onApplicationShutdown(): Promise<void> {
    await this.ocr.close();
  }
}

/**
 * Reading text from a screen's pixels (docs/rules.md: labels where the outline names nothing, and a
 * screen's lines for the injection rail): one long-lived tesseract worker for the process, closed
 * when the process shuts down. The engine imports it, so only the worker starts tesseract.
 */
@Module({
  providers: [
    { provide: OcrLabelReader, useFactory: () => new OcrLabelReader() },
    {
      provide: OcrLifetime,
      inject: [OcrLabelReader],
      useFactory: (ocr: OcrLabelReader) => new OcrLifetime(ocr),
    },
  ],
  exports: [OcrLabelReader],
})
export class OcrModule {}
