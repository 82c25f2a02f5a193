import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  UseInterceptors,
} from '@nestjs/common';
import {
  type Product,
  type ProductDeletedResponse,
  type ProductFacets,
  TOTAL_COUNT_HEADER,
} from '@shop/contracts';
import { AdminOnly } from '@shop/service-kit';
import type { FastifyReply } from 'fastify';
import { CatalogueReadInterceptor } from './catalogue-read.interceptor';
import { UpdateProductDto } from './dto/product-input.dto';
import { ProductFilterDto, ProductSearchDto } from './dto/product-search.dto';
import { ProductsAdminService } from './products-admin.service';
import { ProductsService } from './products.service';

// The reads answer the same to everyone (public fields only): CatalogueReadInterceptor caches them.
@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly admin: ProductsAdminService,
  ) {}

  /** The catalogue or a search of it: always a JSON array, the number of matches in X-Total-Count. */
  @Get()
  @UseInterceptors(CatalogueReadInterceptor)
  async list(
    @Query() search: ProductSearchDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Product[]> {
    const { products, total } = await this.products.search(search);
    void reply.header(TOTAL_COUNT_HEADER, String(total));
    return products;
  }

  /** The categories and brands of a search, with counts (declared before `:id`, which would take 'facets'). */
  @Get('facets')
  @UseInterceptors(CatalogueReadInterceptor)
  facets(@Query() search: ProductFilterDto): Promise<ProductFacets> {
    return this.products.facets(search);
  }

  @Get('categories')
  @UseInterceptors(CatalogueReadInterceptor)
  categories(): Promise<string[]> {
    return this.products.categories();
  }

  @Get('category/:category')
  @UseInterceptors(CatalogueReadInterceptor)
  byCategory(@Param('category') category: string): Promise<Product[]> {
    return this.products.byCategory(category);
  }

  @Get('slug/:slug')
  @UseInterceptors(CatalogueReadInterceptor)
  bySlug(@Param('slug') slug: string): Promise<Product> {
    return this.products.bySlug(slug);
  }

  @Get(':id')
  @UseInterceptors(CatalogueReadInterceptor)
  byId(@Param('id') id: string): Promise<Product> {
    return this.products.byId(id);
  }

  @Post('update/:productId')
  @AdminOnly()
  @HttpCode(200)
  update(@Param('productId') productId: string, @Body() input: UpdateProductDto): Promise<Product> {
    return this.admin.update(productId, input);
  }

  @Delete('delete/:id')
  @AdminOnly()
  remove(@Param('id') id: string): Promise<ProductDeletedResponse> {
    return this.admin.remove(id);
  }
}
