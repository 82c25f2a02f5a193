import { Controller, Get, Param } from '@nestjs/common';
import type { Product } from '@shop/contracts';
import { ProductsService } from './products.service';

@Controller('api/products')
export class ProductsController {
  constructor(private readonly products: ProductsService) {}

  @Get()
  list(): Promise<Product[]> {
    return this.products.list();
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
}
