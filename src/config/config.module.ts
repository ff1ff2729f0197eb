import { DynamicModule, Global, Module } from '@nestjs/common';
import { AppConfig, loadConfig } from './app-config';

/** Provides the validated AppConfig: the one given (tests, CLI) or the one read from the environment. */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config?: AppConfig): DynamicModule {
    return {
      module: ConfigModule,
      providers: [{ provide: AppConfig, useFactory: () => config ?? loadConfig() }],
      exports: [AppConfig],
    };
  }
}
