import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import {
  type Product,
  type ProductDeletedResponse,
  type ProductFacets,
  TOTAL_COUNT_HEADER,
} from '@shop/contracts';
import { AdminOnly } from '@shop/service-kit';
import type { FastifyReply } from 'fastify';
import { UpdateProductDto } from './dto/product-input.dto';
import { ProductFilterDto, ProductSearchDto } from './dto/product-search.dto';
import { ProductsAdminService } from './products-admin.service';
import { ProductsService } from './products.service';

@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly admin: ProductsAdminService,
  ) {}

  /** The catalogue or a search of it: always a JSON array, the number of matches in X-Total-Count. */
  @Get()
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
  facets(@Query() search: ProductFilterDto): Promise<ProductFacets> {
    return this.products.facets(search);
  }

  @Get('categories')
  categories(): Promise<string[]> {
    return this.products.categories();
  }

  @Get('category/:category')
  byCategory(@Param('category') category: string): Promise<Product[]> {
    return this.products.byCategory(category);
  }

  @Get('slug/:slug')
  bySlug(@Param('slug') slug: string): Promise<Product> {
    return this.products.bySlug(slug);
  }

  @Get(':id')
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
