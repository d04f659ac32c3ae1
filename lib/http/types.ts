import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { MiddlewareObj, Request } from '@middy/core';

export type HttpEvent = APIGatewayProxyEventV2;
export type HttpResult = APIGatewayProxyStructuredResultV2;
export type HttpMiddleware = MiddlewareObj<HttpEvent, HttpResult, Error, Context>;
export type HttpRequest = Request<HttpEvent, HttpResult, Error, Context>;
