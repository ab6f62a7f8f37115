; ModuleID = 'layernorm.tess'
source_filename = "layernorm.tess"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tessera_smem = external local_unnamed_addr addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @layernorm_BN4096(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias readonly %w, ptr addrspace(1) noalias readonly %b, ptr addrspace(1) noalias %y, float %eps, i32 %M, i32 %N) local_unnamed_addr #0 {
entry:
  %0 = tail call range(i32 0, 256) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %0, 5
  %1 = sext i32 %N to i64
  %2 = shl nuw nsw i32 %0, 2
  %3 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = mul nsw i64 %1, %4
  %6 = zext nneg i32 %2 to i64
  %7 = add nsw i64 %5, %6
  %8 = getelementptr float, ptr addrspace(1) %x, i64 %7
  %9 = getelementptr float, ptr addrspace(1) %x, i64 %5
  %10 = ptrtoint ptr addrspace(1) %9 to i64
  %11 = and i64 %10, 15
  %12 = icmp eq i64 %11, 0
  %13 = or disjoint i32 %2, 3075
  %14 = icmp slt i32 %2, %N
  %15 = icmp slt i32 %13, %N
  %16 = and i1 %15, %12
  br i1 %16, label %ld.tile, label %ld.edge

ld.tile:                                          ; preds = %entry
  %17 = load float, ptr addrspace(1) %8, align 16
  %18 = getelementptr inbounds nuw i8, ptr addrspace(1) %8, i64 4
  %19 = load float, ptr addrspace(1) %18, align 4
  %20 = getelementptr inbounds nuw i8, ptr addrspace(1) %8, i64 8
  %21 = load float, ptr addrspace(1) %20, align 8
  %22 = getelementptr inbounds nuw i8, ptr addrspace(1) %8, i64 12
  %23 = load float, ptr addrspace(1) %22, align 4
  %24 = getelementptr i8, ptr addrspace(1) %8, i64 4096
  %25 = load float, ptr addrspace(1) %24, align 16
  %26 = getelementptr i8, ptr addrspace(1) %8, i64 4100
  %27 = load float, ptr addrspace(1) %26, align 4
  %28 = getelementptr i8, ptr addrspace(1) %8, i64 4104
  %29 = load float, ptr addrspace(1) %28, align 8
  %30 = getelementptr i8, ptr addrspace(1) %8, i64 4108
  %31 = load float, ptr addrspace(1) %30, align 4
  %32 = getelementptr i8, ptr addrspace(1) %8, i64 8192
  %33 = load float, ptr addrspace(1) %32, align 16
  %34 = getelementptr i8, ptr addrspace(1) %8, i64 8196
  %35 = load float, ptr addrspace(1) %34, align 4
  %36 = getelementptr i8, ptr addrspace(1) %8, i64 8200
  %37 = load float, ptr addrspace(1) %36, align 8
  %38 = getelementptr i8, ptr addrspace(1) %8, i64 8204
  %39 = load float, ptr addrspace(1) %38, align 4
  %40 = getelementptr i8, ptr addrspace(1) %8, i64 12288
  %41 = load float, ptr addrspace(1) %40, align 16
  %42 = getelementptr i8, ptr addrspace(1) %8, i64 12292
  %43 = load float, ptr addrspace(1) %42, align 4
  %44 = getelementptr i8, ptr addrspace(1) %8, i64 12296
  %45 = load float, ptr addrspace(1) %44, align 8
  %46 = getelementptr i8, ptr addrspace(1) %8, i64 12300
  %47 = load float, ptr addrspace(1) %46, align 4
  br label %ld.tile.done

ld.edge:                                          ; preds = %entry
  %48 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %14, i32 0) #5
  %49 = bitcast i32 %48 to float
  %50 = or disjoint i32 %2, 1
  %51 = icmp slt i32 %50, %N
  %52 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %51, i32 0) #5
  %53 = bitcast i32 %52 to float
  %54 = or disjoint i32 %2, 2
  %55 = icmp slt i32 %54, %N
  %56 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %55, i32 0) #5
  %57 = bitcast i32 %56 to float
  %58 = or disjoint i32 %2, 3
  %59 = icmp slt i32 %58, %N
  %60 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %59, i32 0) #5
  %61 = bitcast i32 %60 to float
  %62 = or disjoint i32 %2, 1024
  %63 = icmp slt i32 %62, %N
  %64 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4096];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %63, i32 0) #5
  %65 = bitcast i32 %64 to float
  %66 = or disjoint i32 %2, 1025
  %67 = icmp slt i32 %66, %N
  %68 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4100];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %67, i32 0) #5
  %69 = bitcast i32 %68 to float
  %70 = or disjoint i32 %2, 1026
  %71 = icmp slt i32 %70, %N
  %72 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4104];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %71, i32 0) #5
  %73 = bitcast i32 %72 to float
  %74 = or disjoint i32 %2, 1027
  %75 = icmp slt i32 %74, %N
  %76 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4108];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %75, i32 0) #5
  %77 = bitcast i32 %76 to float
  %78 = or disjoint i32 %2, 2048
  %79 = icmp slt i32 %78, %N
  %80 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8192];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %79, i32 0) #5
  %81 = bitcast i32 %80 to float
  %82 = or disjoint i32 %2, 2049
  %83 = icmp slt i32 %82, %N
  %84 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8196];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %83, i32 0) #5
  %85 = bitcast i32 %84 to float
  %86 = or disjoint i32 %2, 2050
  %87 = icmp slt i32 %86, %N
  %88 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8200];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %87, i32 0) #5
  %89 = bitcast i32 %88 to float
  %90 = or disjoint i32 %2, 2051
  %91 = icmp slt i32 %90, %N
  %92 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8204];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %91, i32 0) #5
  %93 = bitcast i32 %92 to float
  %94 = or disjoint i32 %2, 3072
  %95 = icmp slt i32 %94, %N
  %96 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12288];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %95, i32 0) #5
  %97 = bitcast i32 %96 to float
  %98 = or disjoint i32 %2, 3073
  %99 = icmp slt i32 %98, %N
  %100 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12292];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %99, i32 0) #5
  %101 = bitcast i32 %100 to float
  %102 = or disjoint i32 %2, 3074
  %103 = icmp slt i32 %102, %N
  %104 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12296];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %103, i32 0) #5
  %105 = bitcast i32 %104 to float
  %106 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12300];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %15, i32 0) #5
  %107 = bitcast i32 %106 to float
  %108 = icmp slt i32 %50, %N
  %109 = icmp slt i32 %54, %N
  %110 = icmp slt i32 %58, %N
  %111 = icmp slt i32 %62, %N
  %112 = icmp slt i32 %66, %N
  %113 = icmp slt i32 %70, %N
  %114 = icmp slt i32 %74, %N
  %115 = icmp slt i32 %78, %N
  %116 = icmp slt i32 %82, %N
  %117 = icmp slt i32 %86, %N
  %118 = icmp slt i32 %90, %N
  %119 = icmp slt i32 %94, %N
  %120 = icmp slt i32 %98, %N
  %121 = icmp slt i32 %102, %N
  br label %ld.tile.done

ld.tile.done:                                     ; preds = %ld.edge, %ld.tile
  %.pre-phi26 = phi i1 [ %121, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi24 = phi i1 [ %120, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi22 = phi i1 [ %119, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi20 = phi i1 [ %118, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi18 = phi i1 [ %117, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi16 = phi i1 [ %116, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi14 = phi i1 [ %115, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi12 = phi i1 [ %114, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi10 = phi i1 [ %113, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi8 = phi i1 [ %112, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi6 = phi i1 [ %111, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi4 = phi i1 [ %110, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi2 = phi i1 [ %109, %ld.edge ], [ true, %ld.tile ]
  %.pre-phi = phi i1 [ %108, %ld.edge ], [ true, %ld.tile ]
  %122 = phi float [ %49, %ld.edge ], [ %17, %ld.tile ]
  %123 = phi float [ %53, %ld.edge ], [ %19, %ld.tile ]
  %124 = phi float [ %57, %ld.edge ], [ %21, %ld.tile ]
  %125 = phi float [ %61, %ld.edge ], [ %23, %ld.tile ]
  %126 = phi float [ %65, %ld.edge ], [ %25, %ld.tile ]
  %127 = phi float [ %69, %ld.edge ], [ %27, %ld.tile ]
  %128 = phi float [ %73, %ld.edge ], [ %29, %ld.tile ]
  %129 = phi float [ %77, %ld.edge ], [ %31, %ld.tile ]
  %130 = phi float [ %81, %ld.edge ], [ %33, %ld.tile ]
  %131 = phi float [ %85, %ld.edge ], [ %35, %ld.tile ]
  %132 = phi float [ %89, %ld.edge ], [ %37, %ld.tile ]
  %133 = phi float [ %93, %ld.edge ], [ %39, %ld.tile ]
  %134 = phi float [ %97, %ld.edge ], [ %41, %ld.tile ]
  %135 = phi float [ %101, %ld.edge ], [ %43, %ld.tile ]
  %136 = phi float [ %105, %ld.edge ], [ %45, %ld.tile ]
  %137 = phi float [ %107, %ld.edge ], [ %47, %ld.tile ]
  %138 = fadd contract float %122, %123
  %139 = fadd contract float %138, %124
  %140 = fadd contract float %139, %125
  %141 = fadd contract float %140, %126
  %142 = fadd contract float %141, %127
  %143 = fadd contract float %142, %128
  %144 = fadd contract float %143, %129
  %145 = fadd contract float %144, %130
  %146 = fadd contract float %145, %131
  %147 = fadd contract float %146, %132
  %148 = fadd contract float %147, %133
  %149 = fadd contract float %148, %134
  %150 = fadd contract float %149, %135
  %151 = fadd contract float %150, %136
  %152 = fadd contract float %151, %137
  %153 = bitcast float %152 to i32
  %154 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %153, i32 1, i32 31)
  %155 = bitcast i32 %154 to float
  %156 = fadd contract float %152, %155
  %157 = bitcast float %156 to i32
  %158 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %157, i32 2, i32 31)
  %159 = bitcast i32 %158 to float
  %160 = fadd contract float %156, %159
  %161 = bitcast float %160 to i32
  %162 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %161, i32 4, i32 31)
  %163 = bitcast i32 %162 to float
  %164 = fadd contract float %160, %163
  %165 = bitcast float %164 to i32
  %166 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %165, i32 8, i32 31)
  %167 = bitcast i32 %166 to float
  %168 = fadd contract float %164, %167
  %169 = bitcast float %168 to i32
  %170 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %169, i32 16, i32 31)
  %171 = bitcast i32 %170 to float
  %172 = fadd contract float %168, %171
  %173 = zext nneg i32 %warp to i64
  %174 = getelementptr float, ptr addrspace(3) @tessera_smem, i64 %173
  store float %172, ptr addrspace(3) %174, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %175 = load float, ptr addrspace(3) @tessera_smem, align 16
  %176 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 4), align 4
  %177 = fadd contract float %175, %176
  %178 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 8), align 8
  %179 = fadd contract float %177, %178
  %180 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 12), align 4
  %181 = fadd contract float %179, %180
  %182 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 16), align 16
  %183 = fadd contract float %181, %182
  %184 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 20), align 4
  %185 = fadd contract float %183, %184
  %186 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 24), align 8
  %187 = fadd contract float %185, %186
  %188 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 28), align 4
  %189 = fadd contract float %187, %188
  %190 = sitofp i32 %N to float
  %191 = fdiv float %189, %190
  %192 = fsub contract float %122, %191
  %193 = fsub contract float %123, %191
  %194 = fsub contract float %124, %191
  %195 = fsub contract float %125, %191
  %196 = fsub contract float %126, %191
  %197 = fsub contract float %127, %191
  %198 = fsub contract float %128, %191
  %199 = fsub contract float %129, %191
  %200 = fsub contract float %130, %191
  %201 = fsub contract float %131, %191
  %202 = fsub contract float %132, %191
  %203 = fsub contract float %133, %191
  %204 = fsub contract float %134, %191
  %205 = fsub contract float %135, %191
  %206 = fsub contract float %136, %191
  %207 = fsub contract float %137, %191
  %208 = select i1 %14, float %192, float 0.000000e+00
  %209 = select i1 %.pre-phi, float %193, float 0.000000e+00
  %210 = select i1 %.pre-phi2, float %194, float 0.000000e+00
  %211 = select i1 %.pre-phi4, float %195, float 0.000000e+00
  %212 = select i1 %.pre-phi6, float %196, float 0.000000e+00
  %213 = select i1 %.pre-phi8, float %197, float 0.000000e+00
  %214 = select i1 %.pre-phi10, float %198, float 0.000000e+00
  %215 = select i1 %.pre-phi12, float %199, float 0.000000e+00
  %216 = select i1 %.pre-phi14, float %200, float 0.000000e+00
  %217 = select i1 %.pre-phi16, float %201, float 0.000000e+00
  %218 = select i1 %.pre-phi18, float %202, float 0.000000e+00
  %219 = select i1 %.pre-phi20, float %203, float 0.000000e+00
  %220 = select i1 %.pre-phi22, float %204, float 0.000000e+00
  %221 = select i1 %.pre-phi24, float %205, float 0.000000e+00
  %222 = select i1 %.pre-phi26, float %206, float 0.000000e+00
  %223 = select i1 %15, float %207, float 0.000000e+00
  %224 = fmul contract float %208, %208
  %225 = fmul contract float %209, %209
  %226 = fmul contract float %210, %210
  %227 = fmul contract float %211, %211
  %228 = fmul contract float %212, %212
  %229 = fmul contract float %213, %213
  %230 = fmul contract float %214, %214
  %231 = fmul contract float %215, %215
  %232 = fmul contract float %216, %216
  %233 = fmul contract float %217, %217
  %234 = fmul contract float %218, %218
  %235 = fmul contract float %219, %219
  %236 = fmul contract float %220, %220
  %237 = fmul contract float %221, %221
  %238 = fmul contract float %222, %222
  %239 = fmul contract float %223, %223
  %240 = fadd contract float %224, %225
  %241 = fadd contract float %226, %240
  %242 = fadd contract float %227, %241
  %243 = fadd contract float %228, %242
  %244 = fadd contract float %229, %243
  %245 = fadd contract float %230, %244
  %246 = fadd contract float %231, %245
  %247 = fadd contract float %232, %246
  %248 = fadd contract float %233, %247
  %249 = fadd contract float %234, %248
  %250 = fadd contract float %235, %249
  %251 = fadd contract float %236, %250
  %252 = fadd contract float %237, %251
  %253 = fadd contract float %238, %252
  %254 = fadd contract float %239, %253
  %255 = bitcast float %254 to i32
  %256 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %255, i32 1, i32 31)
  %257 = bitcast i32 %256 to float
  %258 = fadd contract float %254, %257
  %259 = bitcast float %258 to i32
  %260 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %259, i32 2, i32 31)
  %261 = bitcast i32 %260 to float
  %262 = fadd contract float %258, %261
  %263 = bitcast float %262 to i32
  %264 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %263, i32 4, i32 31)
  %265 = bitcast i32 %264 to float
  %266 = fadd contract float %262, %265
  %267 = bitcast float %266 to i32
  %268 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %267, i32 8, i32 31)
  %269 = bitcast i32 %268 to float
  %270 = fadd contract float %266, %269
  %271 = bitcast float %270 to i32
  %272 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %271, i32 16, i32 31)
  %273 = bitcast i32 %272 to float
  %274 = fadd contract float %270, %273
  %275 = getelementptr float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 32), i64 %173
  store float %274, ptr addrspace(3) %275, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %276 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 32), align 16
  %277 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 36), align 4
  %278 = fadd contract float %276, %277
  %279 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 40), align 8
  %280 = fadd contract float %278, %279
  %281 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 44), align 4
  %282 = fadd contract float %280, %281
  %283 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 48), align 16
  %284 = fadd contract float %282, %283
  %285 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 52), align 4
  %286 = fadd contract float %284, %285
  %287 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 56), align 8
  %288 = fadd contract float %286, %287
  %289 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 60), align 4
  %290 = fadd contract float %288, %289
  %291 = fdiv float %290, %190
  %292 = fadd contract float %eps, %291
  %293 = tail call float @llvm.nvvm.rsqrt.approx.f(float %292)
  %294 = fmul contract float %208, %293
  %295 = fmul contract float %209, %293
  %296 = fmul contract float %210, %293
  %297 = fmul contract float %211, %293
  %298 = fmul contract float %212, %293
  %299 = fmul contract float %213, %293
  %300 = fmul contract float %214, %293
  %301 = fmul contract float %215, %293
  %302 = fmul contract float %216, %293
  %303 = fmul contract float %217, %293
  %304 = fmul contract float %218, %293
  %305 = fmul contract float %219, %293
  %306 = fmul contract float %220, %293
  %307 = fmul contract float %221, %293
  %308 = fmul contract float %222, %293
  %309 = fmul contract float %223, %293
  %310 = getelementptr float, ptr addrspace(1) %w, i64 %6
  %311 = ptrtoint ptr addrspace(1) %w to i64
  %312 = and i64 %311, 15
  %313 = icmp eq i64 %312, 0
  %314 = and i1 %313, %15
  br i1 %314, label %ld.tile1, label %ld.edge2

ld.tile1:                                         ; preds = %ld.tile.done
  %315 = load float, ptr addrspace(1) %310, align 16
  %316 = getelementptr inbounds nuw i8, ptr addrspace(1) %310, i64 4
  %317 = load float, ptr addrspace(1) %316, align 4
  %318 = getelementptr inbounds nuw i8, ptr addrspace(1) %310, i64 8
  %319 = load float, ptr addrspace(1) %318, align 8
  %320 = getelementptr inbounds nuw i8, ptr addrspace(1) %310, i64 12
  %321 = load float, ptr addrspace(1) %320, align 4
  %322 = getelementptr i8, ptr addrspace(1) %310, i64 4096
  %323 = load float, ptr addrspace(1) %322, align 16
  %324 = getelementptr i8, ptr addrspace(1) %310, i64 4100
  %325 = load float, ptr addrspace(1) %324, align 4
  %326 = getelementptr i8, ptr addrspace(1) %310, i64 4104
  %327 = load float, ptr addrspace(1) %326, align 8
  %328 = getelementptr i8, ptr addrspace(1) %310, i64 4108
  %329 = load float, ptr addrspace(1) %328, align 4
  %330 = getelementptr i8, ptr addrspace(1) %310, i64 8192
  %331 = load float, ptr addrspace(1) %330, align 16
  %332 = getelementptr i8, ptr addrspace(1) %310, i64 8196
  %333 = load float, ptr addrspace(1) %332, align 4
  %334 = getelementptr i8, ptr addrspace(1) %310, i64 8200
  %335 = load float, ptr addrspace(1) %334, align 8
  %336 = getelementptr i8, ptr addrspace(1) %310, i64 8204
  %337 = load float, ptr addrspace(1) %336, align 4
  %338 = getelementptr i8, ptr addrspace(1) %310, i64 12288
  %339 = load float, ptr addrspace(1) %338, align 16
  %340 = getelementptr i8, ptr addrspace(1) %310, i64 12292
  %341 = load float, ptr addrspace(1) %340, align 4
  %342 = getelementptr i8, ptr addrspace(1) %310, i64 12296
  %343 = load float, ptr addrspace(1) %342, align 8
  %344 = getelementptr i8, ptr addrspace(1) %310, i64 12300
  %345 = load float, ptr addrspace(1) %344, align 4
  br label %ld.tile.done3

ld.edge2:                                         ; preds = %ld.tile.done
  %346 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %14, i32 0) #5
  %347 = bitcast i32 %346 to float
  %348 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi, i32 0) #5
  %349 = bitcast i32 %348 to float
  %350 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi2, i32 0) #5
  %351 = bitcast i32 %350 to float
  %352 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi4, i32 0) #5
  %353 = bitcast i32 %352 to float
  %354 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4096];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi6, i32 0) #5
  %355 = bitcast i32 %354 to float
  %356 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4100];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi8, i32 0) #5
  %357 = bitcast i32 %356 to float
  %358 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4104];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi10, i32 0) #5
  %359 = bitcast i32 %358 to float
  %360 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4108];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi12, i32 0) #5
  %361 = bitcast i32 %360 to float
  %362 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8192];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi14, i32 0) #5
  %363 = bitcast i32 %362 to float
  %364 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8196];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi16, i32 0) #5
  %365 = bitcast i32 %364 to float
  %366 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8200];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi18, i32 0) #5
  %367 = bitcast i32 %366 to float
  %368 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8204];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi20, i32 0) #5
  %369 = bitcast i32 %368 to float
  %370 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12288];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi22, i32 0) #5
  %371 = bitcast i32 %370 to float
  %372 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12292];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi24, i32 0) #5
  %373 = bitcast i32 %372 to float
  %374 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12296];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %.pre-phi26, i32 0) #5
  %375 = bitcast i32 %374 to float
  %376 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12300];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %310, i1 %15, i32 0) #5
  %377 = bitcast i32 %376 to float
  br label %ld.tile.done3

ld.tile.done3:                                    ; preds = %ld.edge2, %ld.tile1
  %378 = phi float [ %315, %ld.tile1 ], [ %347, %ld.edge2 ]
  %379 = phi float [ %317, %ld.tile1 ], [ %349, %ld.edge2 ]
  %380 = phi float [ %319, %ld.tile1 ], [ %351, %ld.edge2 ]
  %381 = phi float [ %321, %ld.tile1 ], [ %353, %ld.edge2 ]
  %382 = phi float [ %323, %ld.tile1 ], [ %355, %ld.edge2 ]
  %383 = phi float [ %325, %ld.tile1 ], [ %357, %ld.edge2 ]
  %384 = phi float [ %327, %ld.tile1 ], [ %359, %ld.edge2 ]
  %385 = phi float [ %329, %ld.tile1 ], [ %361, %ld.edge2 ]
  %386 = phi float [ %331, %ld.tile1 ], [ %363, %ld.edge2 ]
  %387 = phi float [ %333, %ld.tile1 ], [ %365, %ld.edge2 ]
  %388 = phi float [ %335, %ld.tile1 ], [ %367, %ld.edge2 ]
  %389 = phi float [ %337, %ld.tile1 ], [ %369, %ld.edge2 ]
  %390 = phi float [ %339, %ld.tile1 ], [ %371, %ld.edge2 ]
  %391 = phi float [ %341, %ld.tile1 ], [ %373, %ld.edge2 ]
  %392 = phi float [ %343, %ld.tile1 ], [ %375, %ld.edge2 ]
  %393 = phi float [ %345, %ld.tile1 ], [ %377, %ld.edge2 ]
  %394 = fmul contract float %294, %378
  %395 = fmul contract float %295, %379
  %396 = fmul contract float %296, %380
  %397 = fmul contract float %297, %381
  %398 = fmul contract float %298, %382
  %399 = fmul contract float %299, %383
  %400 = fmul contract float %300, %384
  %401 = fmul contract float %301, %385
  %402 = fmul contract float %302, %386
  %403 = fmul contract float %303, %387
  %404 = fmul contract float %304, %388
  %405 = fmul contract float %305, %389
  %406 = fmul contract float %306, %390
  %407 = fmul contract float %307, %391
  %408 = fmul contract float %308, %392
  %409 = fmul contract float %309, %393
  %410 = getelementptr float, ptr addrspace(1) %b, i64 %6
  %411 = ptrtoint ptr addrspace(1) %b to i64
  %412 = and i64 %411, 15
  %413 = icmp eq i64 %412, 0
  %414 = and i1 %413, %15
  br i1 %414, label %ld.tile4, label %ld.edge5

ld.tile4:                                         ; preds = %ld.tile.done3
  %415 = load float, ptr addrspace(1) %410, align 16
  %416 = getelementptr inbounds nuw i8, ptr addrspace(1) %410, i64 4
  %417 = load float, ptr addrspace(1) %416, align 4
  %418 = getelementptr inbounds nuw i8, ptr addrspace(1) %410, i64 8
  %419 = load float, ptr addrspace(1) %418, align 8
  %420 = getelementptr inbounds nuw i8, ptr addrspace(1) %410, i64 12
  %421 = load float, ptr addrspace(1) %420, align 4
  %422 = getelementptr i8, ptr addrspace(1) %410, i64 4096
  %423 = load float, ptr addrspace(1) %422, align 16
  %424 = getelementptr i8, ptr addrspace(1) %410, i64 4100
  %425 = load float, ptr addrspace(1) %424, align 4
  %426 = getelementptr i8, ptr addrspace(1) %410, i64 4104
  %427 = load float, ptr addrspace(1) %426, align 8
  %428 = getelementptr i8, ptr addrspace(1) %410, i64 4108
  %429 = load float, ptr addrspace(1) %428, align 4
  %430 = getelementptr i8, ptr addrspace(1) %410, i64 8192
  %431 = load float, ptr addrspace(1) %430, align 16
  %432 = getelementptr i8, ptr addrspace(1) %410, i64 8196
  %433 = load float, ptr addrspace(1) %432, align 4
  %434 = getelementptr i8, ptr addrspace(1) %410, i64 8200
  %435 = load float, ptr addrspace(1) %434, align 8
  %436 = getelementptr i8, ptr addrspace(1) %410, i64 8204
  %437 = load float, ptr addrspace(1) %436, align 4
  %438 = getelementptr i8, ptr addrspace(1) %410, i64 12288
  %439 = load float, ptr addrspace(1) %438, align 16
  %440 = getelementptr i8, ptr addrspace(1) %410, i64 12292
  %441 = load float, ptr addrspace(1) %440, align 4
  %442 = getelementptr i8, ptr addrspace(1) %410, i64 12296
  %443 = load float, ptr addrspace(1) %442, align 8
  %444 = getelementptr i8, ptr addrspace(1) %410, i64 12300
  %445 = load float, ptr addrspace(1) %444, align 4
  br label %ld.tile.done6

ld.edge5:                                         ; preds = %ld.tile.done3
  %446 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %14, i32 0) #5
  %447 = bitcast i32 %446 to float
  %448 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi, i32 0) #5
  %449 = bitcast i32 %448 to float
  %450 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi2, i32 0) #5
  %451 = bitcast i32 %450 to float
  %452 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi4, i32 0) #5
  %453 = bitcast i32 %452 to float
  %454 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4096];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi6, i32 0) #5
  %455 = bitcast i32 %454 to float
  %456 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4100];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi8, i32 0) #5
  %457 = bitcast i32 %456 to float
  %458 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4104];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi10, i32 0) #5
  %459 = bitcast i32 %458 to float
  %460 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4108];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi12, i32 0) #5
  %461 = bitcast i32 %460 to float
  %462 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8192];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi14, i32 0) #5
  %463 = bitcast i32 %462 to float
  %464 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8196];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi16, i32 0) #5
  %465 = bitcast i32 %464 to float
  %466 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8200];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi18, i32 0) #5
  %467 = bitcast i32 %466 to float
  %468 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8204];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi20, i32 0) #5
  %469 = bitcast i32 %468 to float
  %470 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12288];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi22, i32 0) #5
  %471 = bitcast i32 %470 to float
  %472 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12292];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi24, i32 0) #5
  %473 = bitcast i32 %472 to float
  %474 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12296];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %.pre-phi26, i32 0) #5
  %475 = bitcast i32 %474 to float
  %476 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12300];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %410, i1 %15, i32 0) #5
  %477 = bitcast i32 %476 to float
  br label %ld.tile.done6

ld.tile.done6:                                    ; preds = %ld.edge5, %ld.tile4
  %478 = phi float [ %415, %ld.tile4 ], [ %447, %ld.edge5 ]
  %479 = phi float [ %417, %ld.tile4 ], [ %449, %ld.edge5 ]
  %480 = phi float [ %419, %ld.tile4 ], [ %451, %ld.edge5 ]
  %481 = phi float [ %421, %ld.tile4 ], [ %453, %ld.edge5 ]
  %482 = phi float [ %423, %ld.tile4 ], [ %455, %ld.edge5 ]
  %483 = phi float [ %425, %ld.tile4 ], [ %457, %ld.edge5 ]
  %484 = phi float [ %427, %ld.tile4 ], [ %459, %ld.edge5 ]
  %485 = phi float [ %429, %ld.tile4 ], [ %461, %ld.edge5 ]
  %486 = phi float [ %431, %ld.tile4 ], [ %463, %ld.edge5 ]
  %487 = phi float [ %433, %ld.tile4 ], [ %465, %ld.edge5 ]
  %488 = phi float [ %435, %ld.tile4 ], [ %467, %ld.edge5 ]
  %489 = phi float [ %437, %ld.tile4 ], [ %469, %ld.edge5 ]
  %490 = phi float [ %439, %ld.tile4 ], [ %471, %ld.edge5 ]
  %491 = phi float [ %441, %ld.tile4 ], [ %473, %ld.edge5 ]
  %492 = phi float [ %443, %ld.tile4 ], [ %475, %ld.edge5 ]
  %493 = phi float [ %445, %ld.tile4 ], [ %477, %ld.edge5 ]
  %494 = fadd contract float %394, %478
  %495 = fadd contract float %395, %479
  %496 = fadd contract float %396, %480
  %497 = fadd contract float %397, %481
  %498 = fadd contract float %398, %482
  %499 = fadd contract float %399, %483
  %500 = fadd contract float %400, %484
  %501 = fadd contract float %401, %485
  %502 = fadd contract float %402, %486
  %503 = fadd contract float %403, %487
  %504 = fadd contract float %404, %488
  %505 = fadd contract float %405, %489
  %506 = fadd contract float %406, %490
  %507 = fadd contract float %407, %491
  %508 = fadd contract float %408, %492
  %509 = fadd contract float %409, %493
  %510 = getelementptr float, ptr addrspace(1) %y, i64 %7
  %511 = getelementptr float, ptr addrspace(1) %y, i64 %5
  %512 = ptrtoint ptr addrspace(1) %511 to i64
  %513 = and i64 %512, 15
  %514 = icmp eq i64 %513, 0
  %515 = and i1 %15, %514
  br i1 %515, label %st.tile, label %st.edge

st.tile:                                          ; preds = %ld.tile.done6
  %516 = insertelement <4 x float> poison, float %494, i64 0
  %517 = insertelement <4 x float> %516, float %495, i64 1
  %518 = insertelement <4 x float> %517, float %496, i64 2
  %519 = insertelement <4 x float> %518, float %497, i64 3
  store <4 x float> %519, ptr addrspace(1) %510, align 16
  %520 = getelementptr i8, ptr addrspace(1) %510, i64 4096
  %521 = insertelement <4 x float> poison, float %498, i64 0
  %522 = insertelement <4 x float> %521, float %499, i64 1
  %523 = insertelement <4 x float> %522, float %500, i64 2
  %524 = insertelement <4 x float> %523, float %501, i64 3
  store <4 x float> %524, ptr addrspace(1) %520, align 16
  %525 = getelementptr i8, ptr addrspace(1) %510, i64 8192
  %526 = insertelement <4 x float> poison, float %502, i64 0
  %527 = insertelement <4 x float> %526, float %503, i64 1
  %528 = insertelement <4 x float> %527, float %504, i64 2
  %529 = insertelement <4 x float> %528, float %505, i64 3
  store <4 x float> %529, ptr addrspace(1) %525, align 16
  %530 = getelementptr i8, ptr addrspace(1) %510, i64 12288
  %531 = insertelement <4 x float> poison, float %506, i64 0
  %532 = insertelement <4 x float> %531, float %507, i64 1
  %533 = insertelement <4 x float> %532, float %508, i64 2
  %534 = insertelement <4 x float> %533, float %509, i64 3
  store <4 x float> %534, ptr addrspace(1) %530, align 16
  br label %st.tile.done

st.edge:                                          ; preds = %ld.tile.done6
  %535 = bitcast float %494 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %535, i1 %14) #5
  %536 = bitcast float %495 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %536, i1 %.pre-phi) #5
  %537 = bitcast float %496 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %537, i1 %.pre-phi2) #5
  %538 = bitcast float %497 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %538, i1 %.pre-phi4) #5
  %539 = bitcast float %498 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4096], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %539, i1 %.pre-phi6) #5
  %540 = bitcast float %499 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4100], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %540, i1 %.pre-phi8) #5
  %541 = bitcast float %500 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4104], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %541, i1 %.pre-phi10) #5
  %542 = bitcast float %501 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4108], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %542, i1 %.pre-phi12) #5
  %543 = bitcast float %502 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8192], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %543, i1 %.pre-phi14) #5
  %544 = bitcast float %503 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8196], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %544, i1 %.pre-phi16) #5
  %545 = bitcast float %504 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8200], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %545, i1 %.pre-phi18) #5
  %546 = bitcast float %505 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8204], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %546, i1 %.pre-phi20) #5
  %547 = bitcast float %506 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12288], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %547, i1 %.pre-phi22) #5
  %548 = bitcast float %507 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12292], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %548, i1 %.pre-phi24) #5
  %549 = bitcast float %508 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12296], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %549, i1 %.pre-phi26) #5
  %550 = bitcast float %509 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12300], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %510, i32 %550, i1 %15) #5
  br label %st.tile.done

st.tile.done:                                     ; preds = %st.edge, %st.tile
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #2

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #3

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.rsqrt.approx.f(float) #4

attributes #0 = { nounwind "nvvm.maxntid"="256,1,1" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #3 = { convergent nocallback nounwind }
attributes #4 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #5 = { nounwind }
