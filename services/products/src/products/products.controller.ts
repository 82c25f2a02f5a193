import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Product, ProductDeletedResponse, ProductFacets } from '@shop/contracts';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  AdminOnly,
  ApiErrors,
  ApiRecordOperation,
  type AuthenticatedUser,
  CurrentUser,
  withTotalCount,
} from '@shop/service-kit';
import { CatalogRead } from '../catalog-cache';
import { ProductDeletedBody, ProductFacetsResponse, ProductResponse } from './dto/product.response';
import type { FastifyReply } from 'fastify';
import { UpdateProductDto } from './dto/product-input.dto';
import { ProductFilterDto, ProductSearchDto } from './dto/product-search.dto';
import { ProductsAdminService } from './products-admin.service';
import { ProductsService } from './products.service';

// The reads answer the same to everyone (public fields only): @CatalogRead caches them.
@ApiTags('products')
@Controller('api/products')
export class ProductsController {
  constructor(
    private readonly products: ProductsService,
    private readonly admin: ProductsAdminService,
  ) {}

  /** The catalogue or a search of it: always a JSON array, the number of matches in X-Total-Count. */
  @Get()
  @ApiOperation({
    summary: 'The catalogue, or a search of it',
    description: 'Always a JSON array; the number of matches is in X-Total-Count.',
  })
  @CatalogRead([ProductResponse], { counted: true })
  async list(
    @Query() search: ProductSearchDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Product[]> {
    const { products, total } = await this.products.search(search);
    return withTotalCount(reply, products, total);
  }

  /** The categories and brands of a search, with counts (declared before `:id`, which would take 'facets'). */
  @Get('facets')
  @ApiOperation({ summary: 'The categories and brands of a search, with counts' })
  @CatalogRead(ProductFacetsResponse)
  facets(@Query() search: ProductFilterDto): Promise<ProductFacets> {
    return this.products.facets(search);
  }

  @Get('categories')
  @ApiOperation({ summary: 'Every category of the catalogue' })
  @CatalogRead('string[]')
  categories(): Promise<string[]> {
    return this.products.categories();
  }

  @Get('category/:category')
  @ApiOperation({ summary: 'The products of one category' })
  @CatalogRead([ProductResponse])
  byCategory(@Param('category') category: string): Promise<Product[]> {
    return this.products.byCategory(category);
  }

  @Get('slug/:slug')
  @ApiOperation({ summary: 'One product by its slug' })
  @CatalogRead(ProductResponse)
  @ApiErrors(404)
  bySlug(@Param('slug') slug: string): Promise<Product> {
    return this.products.bySlug(slug);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One product by its id' })
  @CatalogRead(ProductResponse)
  @ApiErrors(404)
  byId(@Param('id') id: string): Promise<Product> {
    return this.products.byId(id);
  }

  @Post('update/:productId')
  @AdminOnly()
  @HttpCode(200)
  @ApiRecordOperation({ summary: 'Update a product (admins)' }, ProductResponse, 409)
  update(
    @CurrentUser() admin: AuthenticatedUser,
    @Param('productId') productId: string,
    @Body() input: UpdateProductDto,
  ): Promise<Product> {
    return this.admin.update(admin, productId, input);
  }

  @Delete('delete/:id')
  @AdminOnly()
  @ApiRecordOperation({ summary: 'Delete a product (admins)' }, ProductDeletedBody)
  remove(@CurrentUser() admin: AuthenticatedUser, @Param('id') id: string): Promise<ProductDeletedResponse> {
    return this.admin.remove(admin, id);
  }
}
